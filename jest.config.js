// `npm run test:all`: every workspace's tests in one jest run (one global setup, shared workers).
module.exports = {
  projects: ['<rootDir>/packages/shared', '<rootDir>/services/*'],
  maxWorkers: 2,
};
