import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { startChaosStack, type ChaosStack } from './chaos-stack';
import { sendWithRetries, steadyStream } from './event-client';
import { faultSchedule, type Fault } from './fault-schedule';
import { analyse, formatReport, refusalKinds, unexplainedDuplicates, type LedgerRow } from './jepsen-report';

// CI runs the short form (npm test); `CHAOS_EVENTS=300 npm run test:chaos` is the full one.
const EVENTS = Number(process.env.CHAOS_EVENTS ?? 60);
const RATE = Number(process.env.CHAOS_RATE ?? 10);
const DRAIN_LIMIT_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const workflow = {
  name: 'Chaos welcome',
  trigger: { event: 'signup' },
  transactional: false,
  steps: [{ id: 'welcome', type: 'email', subject: 'Welcome', html: '<p>Hello {{ email }}.</p>' }],
};

describe('events to email while RabbitMQ and the automation worker crash', () => {
  let stack: ChaosStack;
  beforeAll(async () => {
    stack = await startChaosStack();
  }, 120_000);
  afterAll(() => stack?.stop(), 60_000);

  async function ledger(accountId: number): Promise<{ rows: LedgerRow[]; open: number }> {
    const { rows } = await stack.automationDb.query<LedgerRow>(
      `SELECT c.email, s.state FROM sends s JOIN contacts c ON c.account_id = s.account_id AND c.contact_id = s.contact_id
        WHERE s.account_id = $1`,
      [accountId],
    );
    const open = await stack.automationDb.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM sends WHERE account_id = $1 AND state IN ('pending', 'claimed', 'failed_transient')`,
      [accountId],
    );
    return { rows, open: open.rows[0]?.open ?? 0 };
  }

  it(`loses none of ${EVENTS} acknowledged events and sends no redelivery duplicate`, async () => {
    const { accountId, key } = await stack.anAccountWithKey();
    await importWorkflows(stack.workflowWrites, accountId, [workflow]);
    const run = randomBytes(3).toString('hex');
    const emailOf = (index: number) => `chaos-${run}-${index}@example.test`;

    const killAutomation = (n: number): Fault => ({
      name: `automation SIGKILL #${n}`,
      run: async () => {
        await stack.automation.kill9();
        await sleep(500);
        await stack.automation.start();
      },
    });
    const killRabbit = (n: number): Fault => ({
      name: `RabbitMQ kill -9 #${n}`,
      run: async () => {
        await stack.rabbit.kill9();
        await sleep(1000);
        await stack.rabbit.restart();
      },
    });
    const origin = Date.now();
    // RabbitMQ 3.10: a quorum queue killed within ~1 s of its declaration comes back leaderless.
    const schedule = faultSchedule(
      EVENTS,
      [killAutomation(1), killRabbit(1), killAutomation(2), killRabbit(2), killAutomation(3)],
      origin,
      origin + 2500,
    );
    const events = await steadyStream(EVENTS, RATE, schedule.gate, (index) =>
      sendWithRetries(
        {
          eventsUrl: stack.gateway.eventsUrl,
          key,
          idempotencyKey: `chaos-${run}-${index}`,
          body: { event: 'signup', email: emailOf(index) },
          // Longer than the whole fault chain: a client that gives up earlier would count an outage as a refusal.
          giveUpAfterMs: 90_000,
        },
        index,
      ),
    );
    await schedule.finished();
    const lastFaultAt = Date.now();

    // Drained: every acknowledged event has an email or a recorded outcome and no step is open.
    let drainedMs: number | undefined;
    while (Date.now() - lastFaultAt < DRAIN_LIMIT_MS) {
      const { rows, open } = await ledger(accountId).catch(() => ({ rows: [], open: -1 }));
      const pending = analyse(events, stack.smtp.messages, rows).lost.length;
      if (pending === 0 && open === 0) {
        drainedMs = Date.now() - lastFaultAt;
        break;
      }
      await sleep(250);
    }
    // A little longer, so a late duplicate or an unexpected email would still be counted.
    await sleep(1500);
    const { rows } = await ledger(accountId);
    const report = analyse(events, stack.smtp.messages, rows);
    const deadLettered = Object.values(await stack.deadLettered()).reduce((sum, count) => sum + count, 0);
    const table = formatReport(report, {
      'refused answers seen by clients': events.reduce((sum, event) => sum + event.refusals.length, 0),
      'dead-lettered messages': deadLettered,
      'drained, ms after last fault': drainedMs ?? `> ${DRAIN_LIMIT_MS}`,
      'run, ms': Date.now() - origin,
    });
    const kills = schedule.timings
      .filter((t) => t.name.startsWith('automation'))
      .map((t) => origin + t.startedMs);
    const unexplained = unexplainedDuplicates(report.duplicatedSameMessageId, stack.smtp.messages, kills);
    const faults = schedule.timings
      .map((t) => `${t.name}: at ${t.startedMs} ms, back at ${t.recoveredMs} ms`)
      .join('\n');
    const output = [
      `\nchaos run ${run}: ${EVENTS} events at ${RATE}/s`,
      faults,
      table,
      `refusals by kind: ${refusalKinds(events)}`,
      `same-Message-ID duplicates not explained by a worker kill: ${unexplained.length}`,
      `never acknowledged: ${
        events
          .filter((e) => !e.acknowledged)
          .map((e) => `${e.index} [${e.refusals.join(' ')}]`)
          .join('; ') || 'none'
      }`,
      '',
    ].join('\n');
    process.stdout.write(output);
    const outDir = path.resolve(__dirname, '..', '..', 'test-output');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(path.join(outDir, `chaos-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`), output);

    expect(schedule.timings).toHaveLength(5);
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.lost).toEqual([]);
    expect(report.duplicatedDifferentMessageId).toEqual([]);
    expect(unexplained).toEqual([]);
    expect(deadLettered).toBe(0);
    expect(drainedMs).toBeDefined();
  }, 300_000);
});
