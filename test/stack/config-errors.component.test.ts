import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');

describe('a service started with a bad environment', () => {
  it.each(['gateway', 'contacts', 'campaigns', 'automation'])(
    '%s exits non-zero naming every missing or malformed variable',
    (service) => {
      const result = spawnSync(process.execPath, ['dist/main.js'], {
        cwd: path.join(root, 'services', service),
        env: {
          PATH: process.env.PATH,
          AMQP_URL: 'http://not-a-broker',
          POSTGRES_URL: 'nonsense',
          REDIS_URL: 'redis:/',
        },
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(result.status).not.toBe(0);
      expect(result.status).not.toBeNull();
      expect(result.stderr).toMatch(/INTERNAL_SIGNING_SECRET/);
      // Each of them reads the broker (the gateway publishes the events it accepts).
      expect(result.stderr).toMatch(/AMQP_URL/);
    },
  );
});
