/** Every test runs against a real Temporal dev server and a real PostgreSQL started once by the global setup. */
const ESM_PACKAGES = [
  ...['oidc-provider', 'jose', 'openid-client', 'oauth4webapi'],
  // htmlparser2 (company sites) and the packages it imports.
  ...['htmlparser2', 'domhandler', 'domutils', 'domelementtype', 'dom-serializer', 'entities'],
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The cluster topology has its own command (npm run test:cluster, jest.cluster.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/cluster/'],
  // ESM-only packages are compiled to CommonJS for jest; Node 20 itself loads them with require().
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  transform: {
    '^.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
  testTimeout: 120000,
  // One more than the 2 cores: most files wait on Temporal, timers and HTTP (the whole suite took
  // 833 s with 3 against 1,102 s with 2 on this machine).
  maxWorkers: 3,
  // A worker that grew past this after a file is replaced: module registries of earlier files
  // (native Temporal workers, oidc-provider) pile up, and one ran out of heap in CI.
  workerIdleMemoryLimit: '1536MB',
};
