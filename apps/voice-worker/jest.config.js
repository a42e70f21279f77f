module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'voice-worker',
  rootDir: __dirname,
};
