module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'launcher',
  rootDir: __dirname,
};
