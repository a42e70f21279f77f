module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'device-sim',
  rootDir: __dirname,
};
