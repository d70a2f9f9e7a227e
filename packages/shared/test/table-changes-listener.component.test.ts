import { createPool, ensureDatabase, serviceDatabaseUrl, TableChangesListener, type Pool } from '@mailer/shared';
import { testServers, waitFor } from '@mailer/testing';
import { memoryLogger, uniqueName } from './helpers';

describe('TableChangesListener', () => {
  const servers = testServers();
  let databaseUrl: string;
  let pool: Pool;

  beforeAll(async () => {
    databaseUrl = serviceDatabaseUrl({ service: uniqueName('listen_'), postgresUrl: servers.postgresUrl, dbPrefix: servers.dbPrefix });
    await ensureDatabase(databaseUrl);
    pool = createPool(databaseUrl, memoryLogger().logger);
  });
  afterAll(() => pool.end());

  /** A listener counting each channel's calls, on a connection named `applicationName`. */
  const countingListener = (applicationName: string, channels: string[]) => {
    const calls = new Map(channels.map((channel) => [channel, 0]));
    const listener = new TableChangesListener({ databaseUrl, applicationName, logger: memoryLogger().logger });
    for (const channel of channels) listener.on(channel, () => calls.set(channel, calls.get(channel)! + 1));
    return { listener, calls };
  };
  const listeningBackends = async (applicationName: string) =>
    (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rows;

  it('hears every channel on one connection, each channel calling only its own handler', async () => {
    const name = uniqueName('listen-');
    const { listener, calls } = countingListener(name, ['first_changed', 'second_changed']);
    await listener.start();
    try {
      // Once each on start: what changed before the listening began was not heard.
      expect(Object.fromEntries(calls)).toEqual({ first_changed: 1, second_changed: 1 });
      expect(await listeningBackends(name)).toHaveLength(1);
      await pool.query(`SELECT pg_notify('first_changed', ''), pg_notify('first_changed', 'again')`);
      await pool.query(`NOTIFY second_changed`);
      await waitFor(() => (calls.get('second_changed') === 2 ? true : undefined), { what: 'the second channel heard' });
      await waitFor(() => (calls.get('first_changed') === 3 ? true : undefined), { what: 'the first channel heard twice' });
    } finally {
      await listener.stop();
    }
    expect(await listeningBackends(name)).toHaveLength(0);
  });

  it('listens again on every channel after its connection is killed, and calls each handler once more', async () => {
    const name = uniqueName('listen-');
    const { listener, calls } = countingListener(name, ['first_changed', 'second_changed']);
    await listener.start();
    try {
      const [backend] = await listeningBackends(name);
      await pool.query('SELECT pg_terminate_backend($1)', [backend!.pid]);
      await waitFor(() => ([...calls.values()].every((count) => count === 2) ? true : undefined), {
        what: 'both handlers called after the reconnect',
      });
      await waitFor(async () => ((await listeningBackends(name)).length === 1 ? true : undefined), { what: 'listening again' });
      await pool.query(`NOTIFY second_changed`);
      await waitFor(() => (calls.get('second_changed') === 3 ? true : undefined), { what: 'the second channel heard again' });
      expect(calls.get('first_changed')).toBe(2);
    } finally {
      await listener.stop();
    }
  });

  it('refuses a channel that is not a plain identifier, a second handler for a channel, and a channel added after start', async () => {
    const { listener } = countingListener(uniqueName('listen-'), ['first_changed']);
    expect(() => listener.on('Drop; table', () => undefined)).toThrow('not a channel name');
    expect(() => listener.on('first_changed', () => undefined)).toThrow('already listening');
    await listener.start();
    try {
      expect(() => listener.on('late_changed', () => undefined)).toThrow('before the listener starts');
    } finally {
      await listener.stop();
    }
  });
});
