import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';
import { managedServer, type PrivateServer } from './managed-server';
import { pollUntil, spawnLogged, untilReady } from './spawn-logged';

/** True once the server answers PING with PONG (a loading Redis answers -LOADING instead). */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/**
 * A redis-server child process of our own on a free loopback port: no RDB snapshots, no AOF,
 * so a kill -9 and restart comes back empty, as a cache without persistence does.
 */
export async function startPrivateRedis(options: { readyTimeoutMs?: number } = {}): Promise<PrivateServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mailer-fault-redis-'));
  const logFile = path.join(dir, 'server.log');
  const port = await freePort();
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
    '--daemonize', 'no', '--dir', dir, '--protected-mode', 'no',
  ];
  return managedServer({
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    start: async () => {
      const child = spawnLogged('redis-server', args, { logFile });
      return untilReady(child, logFile, (alive) =>
        pollUntil(() => pong(port), alive, options.readyTimeoutMs ?? 10_000, 'private Redis'),
      );
    },
    gracefulStop: (child) => ({ pid: child.pid ?? 0, signal: 'SIGTERM' }),
  });
}
