// Unit tests of the console's pure logic (src/**/*.spec.ts) and its end-to-end tests in headless Chromium
// (e2e/*.spec.ts), which start the platform with simulated devices and drive the built console.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'console',
  rootDir: __dirname,
};
