// The benchmark's own parts that can be checked without running the stack.
module.exports = require('../jest.preset.js')(__dirname, { displayName: 'bench' });
