// Baseline E, run as its own process so it is measured like a service: a bare node:http ingress
// that reads each POST body whole and publishes it, persistent, on an amqplib confirm channel to
// one durable quorum queue, answering 202 once the broker confirmed it. One publish per request,
// pipelined: requests in flight publish side by side and each waits for its own confirm. No auth,
// no validation, no idempotency: the events service's broker hop without the service's work.
import http from 'node:http';
import amqp, { type ConfirmChannel } from 'amqplib';
import { reportOnce, required, sendJson } from './baseline-process';

const queue = required('INGRESS_QUEUE');
const ACCEPTED = JSON.stringify({ data: { status: 'accepted' } });
let channel: ConfirmChannel | undefined;
let stopping = false;

function publish(res: http.ServerResponse, body: Buffer): void {
  if (!channel) return sendJson(res, 503, '{"error":"not connected"}');
  channel.sendToQueue(queue, body, { persistent: true, contentType: 'application/json' }, (error: unknown) => {
    if (!error) return sendJson(res, 202, ACCEPTED);
    reportOnce(`publish not confirmed: ${String(error)}`);
    sendJson(res, 500, '{"error":"not confirmed"}');
  });
}

const server = http.createServer((req, res) => {
  if (req.url === '/readyz') return sendJson(res, channel ? 200 : 503, channel ? '{"status":"ready"}' : '{"status":"starting"}');
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => publish(res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
});

async function connect(): Promise<void> {
  const connection = await amqp.connect(required('AMQP_URL'));
  // A lost broker connection ends the process: the benchmark sees it as errors, never as a baseline that half works.
  connection.on('close', () => {
    if (!stopping) process.exit(1);
  });
  const confirmChannel = await connection.createConfirmChannel();
  await confirmChannel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  channel = confirmChannel;
  process.once('SIGTERM', () => {
    stopping = true;
    server.close();
    server.closeAllConnections();
    void connection.close().finally(() => process.exit(0));
  });
}

server.keepAliveTimeout = 65_000;
server.listen(Number(required('PORT')), '127.0.0.1');
connect().catch((error: unknown) => {
  process.stderr.write(`cannot reach the broker: ${String(error)}\n`);
  process.exit(1);
});
