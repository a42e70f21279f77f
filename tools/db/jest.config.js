module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'db-tools',
  rootDir: __dirname,
};
