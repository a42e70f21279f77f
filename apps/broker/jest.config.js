module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'broker',
  rootDir: __dirname,
};
