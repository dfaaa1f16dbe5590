/**
 * `npm run test:cluster`: the production topology (full Temporal server on PostgreSQL, two
 * workers, two API processes) started by the compiled `start.js --cluster`, one file at a time.
 */
const base = require('./jest.config.js');

module.exports = {
  testEnvironment: base.testEnvironment,
  transform: base.transform,
  transformIgnorePatterns: base.transformIgnorePatterns,
  reporters: base.reporters,
  roots: ['<rootDir>/test/cluster'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 600000,
  maxWorkers: 1,
  globalSetup: '<rootDir>/test/cluster/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
};
