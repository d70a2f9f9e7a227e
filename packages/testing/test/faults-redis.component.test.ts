import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { startPrivateRedis, waitFor, type PrivateServer } from '@mailer/testing';

describe('private Redis (fault toolkit)', () => {
  let server: PrivateServer;
  let client: Redis;
  beforeAll(async () => {
    server = await startPrivateRedis();
    client = new Redis(server.url, { commandTimeout: 300, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    client.on('error', () => undefined);
    await waitFor(() => (client.status === 'ready' ? true : undefined));
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });

  it('paused, a command times out; resumed, the same connection works again', async () => {
    await client.set('k', 'v');
    server.pause();
    await expect(client.get('k')).rejects.toThrow(/timed out/i);
    server.resume();
    await expect(client.get('k')).resolves.toBe('v');
  });

  it('killed -9, commands fail at once; restarted, the client reconnects to an empty server (no persistence)', async () => {
    await client.set('gone', '1');
    await server.kill9();
    const started = Date.now();
    await expect(client.get('gone')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1000);
    await server.restart();
    const value = await waitFor(async () => client.get('gone').then((found) => ({ found }), () => undefined), {
      timeoutMs: 10_000,
      what: 'reconnect',
    });
    expect(value.found).toBeNull();
  });

  it('stop() removes its folder', async () => {
    const other = await startPrivateRedis();
    await other.stop();
    expect(existsSync(other.dir)).toBe(false);
  });
});
