module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'fuzz',
  rootDir: __dirname,
};
