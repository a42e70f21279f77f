// `npm test` runs every project's tests in one Jest process pool.
module.exports = {
  projects: [
    '<rootDir>/apps/*/jest.config.js',
    '<rootDir>/libs/*/jest.config.js',
    '<rootDir>/tools/*/jest.config.js',
  ],
  // Three on two cores: most suites wait on processes they started (broker, orchestrator, Chromium) and on
  // Postgres, so a third worker fills the idle time (a run used about 1.3 of the 2 cores with two).
  maxWorkers: 3,
  // global options are read here, not from the projects' configs
  testTimeout: 30_000,
};
