module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'protocol',
  rootDir: __dirname,
};
