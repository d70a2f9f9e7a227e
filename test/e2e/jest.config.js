// End-to-end tests: every service started in-process, talking through the gateway and RabbitMQ.
module.exports = require('../../jest.preset.js')(__dirname, { displayName: 'e2e', testMatch: ['<rootDir>/**/*.test.ts'] });
