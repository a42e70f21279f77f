module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'orchestrator',
  rootDir: __dirname,
};
