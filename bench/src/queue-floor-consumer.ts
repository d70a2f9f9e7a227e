// Baseline Q's consumer, run as its own process so it is measured like a service: consumes the
// floor's durable quorum queue with automation's prefetch, sends each message as a welcome email
// like the workflow step's with nodemailer (pooled, automation's SMTP pool size), and acks after
// the sink's 250. No contract, no inbox, no ledger, no rendering: one broker hop and SMTP alone.
import http from 'node:http';
import amqp, { type Channel, type ConsumeMessage } from 'amqplib';
import nodemailer from 'nodemailer';
import { reportOnce, required } from './baseline-process';

/** What the bench's publisher puts in each message. */
interface FloorSignup {
  email: string;
  firstName: string;
  id: string;
}

const queue = required('QUEUE_FLOOR_QUEUE');
const transport = nodemailer.createTransport({
  host: '127.0.0.1',
  port: Number(required('SMTP_PORT')),
  secure: false,
  ignoreTLS: true,
  pool: true,
  maxConnections: Number(required('SMTP_POOL_SIZE')),
  maxMessages: Infinity,
});
let consuming = false;
let stopping = false;

function sendWelcome({ email, firstName, id }: FloorSignup) {
  const link = `http://127.0.0.1/unsubscribe/${id}`;
  return transport.sendMail({
    from: 'Mailer <no-reply@mailer.local>',
    to: email,
    subject: `Welcome, ${firstName}`,
    html: `<p>Hi ${firstName}, thanks for signing up.</p>`,
    text: `Hi ${firstName}, thanks for signing up.`,
    messageId: `<${id}@mailer.local>`,
    headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  });
}

function handle(channel: Channel, message: ConsumeMessage): void {
  sendWelcome(JSON.parse(message.content.toString()) as FloorSignup).then(
    () => channel.ack(message),
    (error: Error) => {
      // Dropped, not requeued: a floor that retries would measure its retries; the bench counts it missing.
      reportOnce(`send failed: ${error.message}`);
      channel.nack(message, false, false);
    },
  );
}

async function consume(): Promise<void> {
  const connection = await amqp.connect(required('AMQP_URL'));
  connection.on('close', () => {
    if (!stopping) process.exit(1);
  });
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.prefetch(Number(required('PREFETCH')));
  await channel.consume(queue, (message) => {
    if (message) handle(channel, message);
  });
  consuming = true;
  process.once('SIGTERM', () => {
    stopping = true;
    server.close();
    transport.close();
    void connection.close().finally(() => process.exit(0));
  });
}

const server = http.createServer((_req, res) => {
  res.writeHead(consuming ? 200 : 503).end();
});
server.listen(Number(required('PORT')), '127.0.0.1');
consume().catch((error: unknown) => {
  process.stderr.write(`cannot consume: ${String(error)}\n`);
  process.exit(1);
});
