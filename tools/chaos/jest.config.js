module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'chaos',
  rootDir: __dirname,
};
