import net, { type AddressInfo, type Server, type Socket } from 'node:net';
import { startTcpProxy, type TcpProxy } from '@mailer/testing';

/** Echoes every byte back: what arrives at the client proves what the proxy forwarded both ways. */
async function startEcho(): Promise<{ server: Server; port: number }> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.address() as AddressInfo).port };
}

interface Conversation {
  socket: Socket;
  received: () => string;
  ended: Promise<string>;
}

function connect(port: number): Promise<Conversation> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    const ended = new Promise<string>((done) => {
      socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
      socket.on('close', () => done('closed'));
    });
    socket.once('connect', () => resolve({ socket, received: () => data, ended }));
    socket.once('error', reject);
  });
}

const until = async (check: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('TCP fault proxy', () => {
  let echo: { server: Server; port: number };
  let proxy: TcpProxy;
  beforeAll(async () => {
    echo = await startEcho();
  });
  beforeEach(async () => {
    proxy = await startTcpProxy({ host: '127.0.0.1', port: echo.port });
  });
  afterEach(() => proxy.close());
  afterAll(() => new Promise<void>((resolve) => echo.server.close(() => resolve())));

  it('forwards both ways when no fault is set', async () => {
    const conversation = await connect(proxy.port);
    conversation.socket.write('hello');
    await until(() => conversation.received() === 'hello');
    conversation.socket.destroy();
  });

  it('latency delays each direction by the given time', async () => {
    proxy.fault({ kind: 'latency', ms: 150 });
    const conversation = await connect(proxy.port);
    const started = Date.now();
    conversation.socket.write('slow');
    await until(() => conversation.received() === 'slow');
    // 150 ms to the echo server and 150 ms back.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    conversation.socket.destroy();
  });

  it('stall accepts the connection but forwards nothing, until the fault is lifted', async () => {
    proxy.fault({ kind: 'stall' });
    const conversation = await connect(proxy.port);
    conversation.socket.write('lost');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(conversation.received()).toBe('');
    proxy.fault({ kind: 'none' });
    conversation.socket.write('later');
    await until(() => conversation.received() === 'later');
    conversation.socket.destroy();
  });

  it('reset answers an open connection and a new one with a TCP reset', async () => {
    const open = await connect(proxy.port);
    proxy.fault({ kind: 'reset' });
    await expect(open.ended).resolves.toBe('ECONNRESET');
    const fresh = await connect(proxy.port).catch((error: NodeJS.ErrnoException) => error.code ?? 'error');
    const outcome = typeof fresh === 'string' ? fresh : await fresh.ended;
    expect(outcome).toBe('ECONNRESET');
  });

  it('close-after (to the client) delivers exactly N bytes of the answer, then closes the connection', async () => {
    proxy.fault({ kind: 'close-after', bytes: 10, direction: 'to-client' });
    const conversation = await connect(proxy.port);
    conversation.socket.write('0123456789abcdef');
    await expect(conversation.ended).resolves.toBe('closed');
    expect(conversation.received()).toBe('0123456789');
  });

  it('close-after (both ways) counts what the client sends too', async () => {
    proxy.fault({ kind: 'close-after', bytes: 4 });
    const conversation = await connect(proxy.port);
    conversation.socket.write('0123456789');
    await expect(conversation.ended).resolves.toBe('closed');
    // The 4 bytes of budget went to the target, none was left for the echo.
    expect(conversation.received()).toBe('');
  });

  it('cut and resume keep working as before', async () => {
    proxy.cut();
    const refused = await connect(proxy.port);
    await expect(refused.ended).resolves.toBe('closed');
    proxy.resume();
    const conversation = await connect(proxy.port);
    conversation.socket.write('back');
    await until(() => conversation.received() === 'back');
    expect(proxy.accepted()).toBe(2);
    conversation.socket.destroy();
  });
});
