// `npm run bench:events -w services/automation`: a benchmark, not a test. Sends product events at a
// steady rate (BENCH_RATE per second for BENCH_SECONDS) through events -> contacts -> automation ->
// SMTP sink and reports accepted events/s and the event -> email-in-sink latency p50/p99.
import { randomUUID } from 'node:crypto';
import { IDENTITY_HEADER, signIdentity } from '@mailer/shared';
import { EmailRenderer } from '../domain/rendering/render-email';
import { importWorkflows } from '../domain/workflows/import-workflows';
import { startBenchStack } from './bench-stack';
import { percentile } from './percentiles';
import { measureSmtpBaseline } from './smtp-baseline';

const rate = Number(process.env.BENCH_RATE ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

async function main(): Promise<void> {
  const stack = await startBenchStack();
  try {
    const accountId = 1 + Math.floor(Math.random() * 1_000_000);
    await importWorkflows(stack.automation.pool, new EmailRenderer(), accountId, {
      name: 'Bench welcome',
      trigger: { event: 'bench_signup' },
      fallbacks: { first_name: 'there' },
      steps: [{ id: 'welcome', type: 'email', subject: 'Welcome, {{ first_name }}', html: '<p>Hi {{ first_name }}, event {{ seq }}</p>' }],
    });
    const total = Math.round(rate * seconds);
    const baseline = await measureSmtpBaseline(stack.sink, rate, total);
    const sentAt = new Map<string, number>();
    let accepted = 0;
    let refused = 0;
    const started = Date.now();
    const inFlight: Array<Promise<void>> = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const email = `b${i}-${randomUUID().slice(0, 8)}@bench.test`;
      const t0 = Date.now();
      inFlight.push(
        fetch(`${stack.eventsUrl}/v1/events`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [IDENTITY_HEADER]: signIdentity({ accountId, requestId: randomUUID() }, stack.env.INTERNAL_SIGNING_SECRET!),
          },
          body: JSON.stringify({ event: 'bench_signup', email, properties: { first_name: `User${i}`, seq: i } }),
        }).then(
          async (response) => {
            await response.arrayBuffer();
            if (response.status === 202) {
              accepted++;
              sentAt.set(email.toLowerCase(), t0);
            } else refused++;
          },
          () => void refused++,
        ),
      );
    }
    await Promise.all(inFlight);
    const ingestSeconds = (Date.now() - started) / 1000;
    await stack.sink.waitForMessages(accepted, 120_000).catch(() => undefined);
    const latencies = stack.sink.messages
      .map((message) => {
        const t0 = sentAt.get(message.to[0] ?? '');
        return t0 === undefined ? undefined : message.receivedAt - t0;
      })
      .filter((value): value is number => value !== undefined);
    // Where the time goes: event -> enrolled in automation (events, broker, contacts), enrolled -> in the sink.
    const { rows } = await stack.automation.pool.query<{ email: string; enrolled_at: Date }>(
      "SELECT lower(email) AS email, created_at AS enrolled_at FROM delivery_log WHERE account_id = $1 AND outcome = 'enrolled'",
      [accountId],
    );
    const enrolledAt = new Map(rows.map((row) => [row.email, row.enrolled_at.getTime()]));
    const toEnrolment: number[] = [];
    const enrolmentToSink: number[] = [];
    for (const message of stack.sink.messages) {
      const email = message.to[0] ?? '';
      const [t0, enrolled] = [sentAt.get(email), enrolledAt.get(email)];
      if (t0 === undefined || enrolled === undefined) continue;
      toEnrolment.push(enrolled - t0);
      enrolmentToSink.push(message.receivedAt - enrolled);
    }
    const report = {
      target_rate_per_s: rate,
      events_sent: total,
      accepted,
      refused,
      accepted_per_s: Number((accepted / ingestSeconds).toFixed(1)),
      emails_in_sink: latencies.length,
      latency_ms: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) },
      baseline_smtp_only_latency_ms: baseline,
      latency_vs_baseline: {
        p50: Number((percentile(latencies, 50) / Math.max(1, baseline.p50)).toFixed(1)),
        p99: Number((percentile(latencies, 99) / Math.max(1, baseline.p99)).toFixed(1)),
      },
      stages_ms: {
        event_to_enrolment: { p50: percentile(toEnrolment, 50), p99: percentile(toEnrolment, 99) },
        enrolment_to_sink: { p50: percentile(enrolmentToSink, 50), p99: percentile(enrolmentToSink, 99) },
      },
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
