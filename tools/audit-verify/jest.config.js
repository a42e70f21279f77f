module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'audit-verify',
  rootDir: __dirname,
};
