// `npm test` runs every project's tests in one Jest process pool.
module.exports = {
  projects: [
    '<rootDir>/apps/*/jest.config.js',
    '<rootDir>/libs/*/jest.config.js',
    '<rootDir>/tools/*/jest.config.js',
  ],
  maxWorkers: 2,
  // global options are read here, not from the projects' configs
  testTimeout: 30_000,
};
