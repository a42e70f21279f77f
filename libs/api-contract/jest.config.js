module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api-contract',
  rootDir: __dirname,
};
