module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'admin-api',
  rootDir: __dirname,
};
