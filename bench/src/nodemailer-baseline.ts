import nodemailer from 'nodemailer';
import type { ArrivalSink } from './arrival-sink';
import { drainArrivals, drainResult, type DrainResult } from './drain-result';
import { BENCH_DOMAIN } from './start-stack';

const SEND_TIMEOUT_MS = 240_000;

/**
 * Baseline B: nodemailer alone (pooled, as many connections as the automation service's pool,
 * unbounded messages per connection) handed `count` emails like the welcome step's at once, into
 * the same sink: emails/s from the first sendMail to the last arrival.
 */
export async function measureNodemailerBaseline(options: {
  sink: ArrivalSink;
  runId: string;
  count: number;
  maxConnections: number;
}): Promise<DrainResult> {
  const { sink, runId, count } = options;
  const { arrivals, tag } = drainArrivals(sink, 'nodemailer', runId);
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: sink.port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: options.maxConnections,
    maxMessages: Infinity,
  });
  const started = Date.now();
  try {
    const sends = Array.from({ length: count }, (_, index) => {
      const link = `http://127.0.0.1/unsubscribe/${runId}${index}`;
      return transport.sendMail({
        from: 'Mailer <no-reply@mailer.local>',
        to: `nodemailer${index + 1}${tag}`,
        subject: `Welcome, Backlog${index + 1}`,
        html: `<p>Hi Backlog${index + 1}, thanks for signing up.</p>`,
        text: `Hi Backlog${index + 1}, thanks for signing up.`,
        messageId: `<nodemailer.${index}.${runId}@${BENCH_DOMAIN}>`,
        headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
    });
    const outcomes = await Promise.allSettled(sends);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected').length;
    if (refused > 0) process.stderr.write(`baseline B: ${refused} of ${count} sends failed\n`);
  } finally {
    transport.close();
  }
  return drainResult('baseline B', arrivals, count, started, SEND_TIMEOUT_MS);
}
