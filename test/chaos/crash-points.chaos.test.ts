import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '@mailer/testing';
import type { CrashPoint } from '../../services/automation/src/crash-point';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { startChaosStack, type ChaosStack } from './chaos-stack';
import { sendWithRetries } from './event-client';

/**
 * The crash-point matrix (issue 9): the automation worker SIGKILLs itself once at one point of the
 * send path (AUTOMATION_CRASH_AT, test-only), is restarted without the switch, and the outcome for
 * the one signup event is asserted against the SMTP sink and the ledger. In the code's order:
 * enrolment committed and the enriched event acked -> claim -> SMTP accepted -> ledger commit.
 */
// `reclaimed`: whether the restart must take the row over by lease expiry (a `reconciled` log
// line); undefined after the ack, where the scheduler may or may not have claimed before the kill.
const cases: Array<{
  point: CrashPoint;
  copies: [min: number, max: number];
  reclaimed?: boolean;
  why: string;
}> = [
  {
    point: 'after_ack',
    copies: [1, 1],
    why: 'the step row is committed before the ack; the restart claims it',
  },
  {
    point: 'after_claim',
    copies: [1, 1],
    reclaimed: true,
    why: 'nothing was sent; the lease expires and the row is claimed again',
  },
  {
    point: 'after_smtp_accepted',
    copies: [1, 2],
    reclaimed: true,
    why: 'the documented duplicate window: re-sent with the same Message-ID',
  },
  {
    point: 'after_ledger_commit',
    copies: [1, 1],
    reclaimed: false,
    why: '"sent" is committed; the outbox publishes after the restart',
  },
];

const workflow = (name: string) => ({
  name,
  trigger: { event: 'signup' },
  transactional: false,
  steps: [{ id: 'welcome', type: 'email', subject: 'Welcome', html: '<p>Hello {{ email }}.</p>' }],
});

describe('crash-point matrix of the automation worker', () => {
  let stack: ChaosStack;
  beforeAll(async () => {
    stack = await startChaosStack();
  }, 120_000);
  afterAll(() => stack?.stop(), 60_000);

  async function ledgerRows(accountId: number) {
    const { rows } = await stack.automationDb.query<{ state: string; message_id: string }>(
      'SELECT state, message_id FROM sends WHERE account_id = $1',
      [accountId],
    );
    return rows;
  }

  async function loggedOutcomes(accountId: number) {
    const { rows } = await stack.automationDb.query<{ outcome: string }>(
      'SELECT outcome FROM delivery_log WHERE account_id = $1',
      [accountId],
    );
    return rows.map((entry) => entry.outcome);
  }

  it.each(cases)(
    'a crash at $point loses no email and duplicates only in the SMTP window ($why)',
    async ({ point, copies, reclaimed }) => {
      const { accountId, key } = await stack.anAccountWithKey();
      await importWorkflows(stack.workflowWrites, accountId, [workflow(`Crash ${point}`)]);
      const run = randomBytes(3).toString('hex');
      const email = `crash-${point.replace(/_/g, '-')}-${run}@example.test`;
      const marker = path.join(stack.rabbit.dir, `crashed-${point}-${run}`);

      await stack.automation.stop();
      await stack.automation.start({ AUTOMATION_CRASH_AT: point, AUTOMATION_CRASH_ONCE_FILE: marker });
      const sent = await sendWithRetries(
        {
          eventsUrl: stack.gateway.eventsUrl,
          key,
          idempotencyKey: `crash-${run}`,
          body: { event: 'signup', email },
          giveUpAfterMs: 20_000,
        },
        0,
      );
      expect(sent.acknowledged).toBe(true);
      await stack.automation.died(20_000);
      // It died at the point, not for another reason.
      expect(existsSync(marker)).toBe(true);

      await stack.automation.start();
      const [row] = await waitFor(
        async () => {
          const rows = await ledgerRows(accountId);
          return rows.length === 1 && rows[0]?.state === 'sent' ? rows : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 100, what: `the ${point} step to end sent` },
      );
      // Room for a late copy to show up before counting.
      await new Promise((resolve) => setTimeout(resolve, 1000));

      const received = stack.smtp.messagesTo(email);
      expect(received.length).toBeGreaterThanOrEqual(copies[0]);
      expect(received.length).toBeLessThanOrEqual(copies[1]);
      const messageIds = new Set(received.map((message) => message.headers.get('message-id')));
      expect([...messageIds]).toEqual([row?.message_id]);
      expect(await ledgerRows(accountId)).toEqual([row]);
      const outcomes = await loggedOutcomes(accountId);
      // The figures for docs/reliability.md: copies delivered and whether the row was taken over by lease.
      process.stdout.write(
        `crash ${point}: ${received.length} email(s), 1 Message-ID, ledger sent, reconciled: ${outcomes.includes('reconciled')}\n`,
      );
      expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(1);
      if (reclaimed !== undefined) expect(outcomes.includes('reconciled')).toBe(reclaimed);
      // The email.sent fact reaches the broker too (after_ledger_commit: published by the restarted worker).
      await waitFor(
        async () => {
          const { rows } = await stack.automationDb.query<{ left: number }>(
            'SELECT count(*)::int AS left FROM outbox',
          );
          return rows[0]?.left === 0 ? true : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 100, what: 'the outbox to drain' },
      );
      const deadLettered = await stack.deadLettered();
      expect(Object.values(deadLettered).every((count) => count === 0)).toBe(true);
    },
    75_000,
  );
});
