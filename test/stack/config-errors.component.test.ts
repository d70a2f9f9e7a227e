import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');

describe('a service started with a bad environment', () => {
  // Each names the servers it reads: the gateway its database and Redis, the others the broker too.
  it.each([
    ['gateway', ['POSTGRES_URL', 'REDIS_URL']],
    ['contacts', ['POSTGRES_URL', 'AMQP_URL']],
    ['campaigns', ['POSTGRES_URL', 'AMQP_URL']],
    ['events', ['AMQP_URL', 'REDIS_URL']],
    ['automation', ['POSTGRES_URL', 'AMQP_URL']],
  ])('%s exits non-zero naming every missing or malformed variable', (service, malformed) => {
    const result = spawnSync(process.execPath, ['dist/main.js'], {
      cwd: path.join(root, 'services', service),
      env: {
        PATH: process.env.PATH,
        AMQP_URL: 'http://not-a-broker',
        POSTGRES_URL: 'nonsense',
        REDIS_URL: 'http://not-redis',
      },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.status).not.toBeNull();
    expect(result.stderr).toMatch(/INTERNAL_SIGNING_SECRET/);
    for (const variable of malformed) expect(result.stderr).toContain(variable);
  });
});
