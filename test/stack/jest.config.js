// Whole-stack tests: the compiled services started as real processes, the way `npm start` runs them.
module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'stack',
  testMatch: ['<rootDir>/**/*.test.ts'],
});
