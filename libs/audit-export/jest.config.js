module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'audit-export',
  rootDir: __dirname,
};
