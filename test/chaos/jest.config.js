// Chaos suite: the product under broker and worker crashes (issue 9). CHAOS_EVENTS sizes it.
module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'chaos',
  testMatch: ['<rootDir>/**/*.test.ts'],
});
