// One jest configuration for every workspace: TypeScript transpiled by ts-jest, shared sources mapped (no build needed),
// and the global setup that gives each run its own databases, Redis prefix and vhost.
const path = require('node:path');

const root = __dirname;

module.exports = (workspaceDir, overrides = {}) => ({
  displayName: path.basename(workspaceDir),
  rootDir: workspaceDir,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // Transpile only: `npm test` type-checks everything with tsc -b before jest runs.
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true, module: 'commonjs', target: 'es2022', esModuleInterop: true } }],
  },
  moduleNameMapper: {
    '^@mailer/shared$': `${root}/packages/shared/src/index.ts`,
    '^@mailer/shared/(.*)$': `${root}/packages/shared/src/$1/index.ts`,
    '^@mailer/testing$': `${root}/packages/testing/src/index.ts`,
    '^@mailer/testing/(.*)$': `${root}/packages/testing/src/$1/index.ts`,
  },
  globalSetup: `${root}/test/global-setup.ts`,
  globalTeardown: `${root}/test/global-teardown.ts`,
  setupFilesAfterEnv: [`${root}/test/jest-setup.ts`],
  ...overrides,
});
