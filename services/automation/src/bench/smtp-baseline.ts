import nodemailer from 'nodemailer';
import type { SmtpSink } from '@mailer/shared/testing';
import { percentile } from './percentiles';

/**
 * Baseline measured in the same run as the product: nodemailer alone (pooled, unbounded
 * maxMessages) sending `total` messages into the same sink at the same steady rate. The product's
 * event → email latency is read against this send → sink latency (shared, noisy machines).
 */
export async function measureSmtpBaseline(sink: SmtpSink, rate: number, total: number) {
  const transport = nodemailer.createTransport({ url: sink.url, pool: true, maxConnections: 8, maxMessages: Infinity } as never);
  const latencies: number[] = [];
  const before = sink.messages.length;
  const started = Date.now();
  const sends: Array<Promise<void>> = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / rate - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const t0 = Date.now();
    const to = `baseline${i}@bench.test`;
    sends.push(
      transport
        .sendMail({ from: 'bench@bench.test', to, subject: `Welcome, User${i}`, html: `<p>Hi User${i}, event ${i}</p>` })
        .then(() => {
          const received = sink.messages.find((message) => message.to[0] === to);
          if (received) latencies.push(received.receivedAt - t0);
        }),
    );
  }
  await Promise.all(sends);
  transport.close();
  sink.messages.splice(before);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
