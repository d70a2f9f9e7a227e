// One jest configuration for every workspace: swc transform, shared sources mapped (no build needed),
// and the global setup that gives each run its own databases, Redis prefix and vhost.
const path = require('node:path');

const root = __dirname;

module.exports = (workspaceDir, overrides = {}) => ({
  displayName: path.basename(workspaceDir),
  rootDir: workspaceDir,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, sourceMaps: 'inline' }],
  },
  moduleNameMapper: {
    '^@mailer/shared$': `${root}/packages/shared/src/index.ts`,
    '^@mailer/shared/(.*)$': `${root}/packages/shared/src/$1/index.ts`,
  },
  globalSetup: `${root}/test/global-setup.ts`,
  globalTeardown: `${root}/test/global-teardown.ts`,
  testTimeout: 30_000,
  ...overrides,
});
