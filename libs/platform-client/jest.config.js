module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'platform-client',
  rootDir: __dirname,
};
