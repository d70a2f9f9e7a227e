// `npm run bench:app` (the last part of `npm run bench`): the account app's page times on 100k rows,
// through the whole product in-process. Measurements, not tests of the default run: they seed 100k
// contacts, campaign recipients and log entries each, and report the medians they assert on.
const preset = require('./jest.config.js');

module.exports = { ...preset, displayName: 'app-pages-bench', testMatch: ['<rootDir>/**/*.bench.ts'], testTimeout: 600_000 };
