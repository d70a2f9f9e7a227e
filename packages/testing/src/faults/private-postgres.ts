import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import pg from 'pg';
import { freePort } from './free-port';
import { managedServer, type PrivateServer } from './managed-server';
import { isAlive } from './process-tree';
import { pollUntil, spawnLogged, untilReady } from './spawn-logged';

const run = promisify(execFile);
const BIN = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** Postgres refuses to run as root: initdb and the server run as the `postgres` OS user. */
const asPostgres = (binary: string, args: string[]) => ['-u', 'postgres', '--', path.join(BIN, binary), ...args];

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A Postgres 15 cluster of our own: fresh `initdb` in a temp folder, trust auth, loopback on a free
 * port, never the machine's server. `fsync=off` makes it fast; a kill -9 of processes still keeps
 * every committed row (the OS page cache survives), which is what crash tests need.
 */
export async function startPrivatePostgres(options: { readyTimeoutMs?: number } = {}): Promise<PrivateServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mailer-fault-pg-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  chownSync(dir, uid, gid);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  await run('runuser', asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']));
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const args = [
    // TCP only: no socket lock file for a zombie postmaster to hold after a kill -9.
    '-D', data, '-p', String(port), '-c', 'unix_socket_directories=',
    '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200',
  ];
  return managedServer({
    url,
    port,
    dir,
    start: async () => {
      // After a kill -9 the lock file names a dead postmaster that may still be an unreaped zombie,
      // which Postgres would take for a live one and refuse to start: remove it when it is dead.
      const lock = path.join(data, 'postmaster.pid');
      if (existsSync(lock) && !isAlive(Number(readFileSync(lock, 'utf8').split('\n')[0]))) rmSync(lock);
      const child = spawnLogged('runuser', asPostgres('postgres', args), { logFile });
      return untilReady(child, logFile, (alive) =>
        pollUntil(() => accepts(url), alive, options.readyTimeoutMs ?? 20_000, 'private Postgres'),
      );
    },
    // The postmaster (not runuser) takes SIGINT as "fast shutdown": roll back, close, checkpoint.
    gracefulStop: () => ({ pid: Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]), signal: 'SIGINT' }),
  });
}
