import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { freePort } from '@mailer/testing';
import { SmtpConnectionPool } from '../src/data-access/smtp-connection-pool';

interface TestServer {
  port: number;
  connections: number;
  received: string[];
  /** Closes every open connection from the server's side, as an idle timeout would. */
  dropConnections(): void;
  close(): Promise<void>;
}

async function startServer(options: Partial<SMTPServerOptions> = {}): Promise<TestServer> {
  const state = { connections: 0, received: [] as string[] };
  const sockets = new Set<{ destroy(): void }>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(session, callback) {
      state.connections++;
      callback();
    },
    onRcptTo(address, session, callback) {
      if (address.address.startsWith('unknown')) callback(Object.assign(new Error('5.1.1 no such mailbox'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        state.received.push(Buffer.concat(chunks).toString());
        callback();
      });
    },
    ...options,
  });
  server.server.on('connection', (socket: { destroy(): void; once(event: 'close', listener: () => void): void }) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    get connections() {
      return state.connections;
    },
    received: state.received,
    dropConnections: () => sockets.forEach((socket) => socket.destroy()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const message = (subject: string) => Buffer.from(`Subject: ${subject}\r\n\r\nbody of ${subject}\r\n`);
const to = (address: string) => ({ from: 'news@acme.test', to: [address] });

describe('SmtpConnectionPool', () => {
  let server: TestServer;
  let pool: SmtpConnectionPool;
  const open = (overrides: { size?: number; ratePerSecond?: number; url?: string } = {}) =>
    (pool = new SmtpConnectionPool({ url: `smtp://127.0.0.1:${server.port}`, size: 3, ratePerSecond: 1000, timeoutMs: 5000, ...overrides }));

  beforeEach(async () => {
    server = await startServer();
  });
  afterEach(async () => {
    pool.close();
    await server.close();
  });

  it('sends every message as it is over no more connections than its size', async () => {
    open();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => pool.send(to(`ann${i}@example.test`), message(`m${i}`))));
    expect(answers.every((answer) => answer.startsWith('250'))).toBe(true);
    expect(server.received).toHaveLength(30);
    expect(server.received).toContain('Subject: m7\r\n\r\nbody of m7\r\n');
    expect(server.connections).toBe(3);
  });

  it('rejects a refused recipient with the server answer and keeps the connection for the next message', async () => {
    open({ size: 1 });
    await expect(pool.send(to('unknown@example.test'), message('refused'))).rejects.toMatchObject({ responseCode: 550, command: 'RCPT TO' });
    await expect(pool.send(to('ann@example.test'), message('after'))).resolves.toMatch(/^250/);
    expect(server.connections).toBe(1);
    expect(server.received).toHaveLength(1);
  });

  it('opens a new connection when the server closed an idle one', async () => {
    open({ size: 1 });
    await pool.send(to('ann@example.test'), message('first'));
    server.dropConnections();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(pool.send(to('ann@example.test'), message('second'))).resolves.toMatch(/^250/);
    expect(server.connections).toBe(2);
  });

  it('fails at once when nothing listens, and sends again once the server is back', async () => {
    const port = await freePort();
    open({ url: `smtp://127.0.0.1:${port}` });
    await expect(pool.send(to('ann@example.test'), message('nobody'))).rejects.toMatchObject({ code: 'ECONNECTION' });
    const back = await startServer();
    try {
      pool.close();
      open({ url: `smtp://127.0.0.1:${back.port}` });
      await expect(pool.send(to('ann@example.test'), message('back'))).resolves.toMatch(/^250/);
    } finally {
      pool.close();
      await back.close();
    }
  });

  it('starts no more messages a second than its rate', async () => {
    open({ ratePerSecond: 4 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 9 }, (_, i) => pool.send(to(`ann${i}@example.test`), message(`r${i}`))));
    // 4 in the first second, 4 in the second, the ninth in the third.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(server.received).toHaveLength(9);
  });

  it('logs in with the credentials of its URL', async () => {
    const logins: string[] = [];
    const secured = await startServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, session, callback) {
        logins.push(`${auth.username}:${auth.password}`);
        if (auth.password === 's3cret') callback(null, { user: auth.username });
        else callback(new Error('invalid credentials'));
      },
    });
    try {
      open({ url: `smtp://relay:s3cret@127.0.0.1:${secured.port}`, size: 1 });
      await expect(pool.send(to('ann@example.test'), message('authenticated'))).resolves.toMatch(/^250/);
      expect(logins).toEqual(['relay:s3cret']);
    } finally {
      pool.close();
      await secured.close();
    }
  });
});
