module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'deploy',
  testMatch: ['<rootDir>/**/*.test.ts'],
});
