// End-to-end tests: every service started in-process, talking through the gateway and RabbitMQ.
const preset = require('../../jest.preset.js')(__dirname, { displayName: 'e2e', testMatch: ['<rootDir>/**/*.test.ts'] });

// Tests import the client's built declarations (tsc -b); jest runs its sources, so no build is needed.
preset.moduleNameMapper = { ...preset.moduleNameMapper, '^(?:\\.\\./)+packages/client/dist/(.*)$': `${__dirname}/../../packages/client/src/$1` };
module.exports = preset;
