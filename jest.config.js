// `npm run test:all`: every workspace's tests in one jest run (one global setup, shared workers).
module.exports = {
  projects: ['<rootDir>/packages/shared', '<rootDir>/packages/testing', '<rootDir>/services/*', '<rootDir>/test/stack', '<rootDir>/test/e2e', '<rootDir>/test/deploy', '<rootDir>/test/chaos', '<rootDir>/bench'],
  maxWorkers: 2,
  // testTimeout is a global option: project configs cannot set it in a multi-project run.
  testTimeout: 30_000,
};
