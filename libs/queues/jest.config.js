module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'queues',
  rootDir: __dirname,
};
