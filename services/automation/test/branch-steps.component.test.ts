import { randomUUID } from 'node:crypto';
import { emailClickedV1, withTransaction, type ContactSnapshot } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { findWorkflow } from '../src/data-access/workflows.repository';
import { takeBranch } from '../src/domain/branching/take-branch';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const html = '<p>Hello</p><a href="https://shop.test/offer">Offer</a>';

/** Welcome, then "clicked the welcome within `within`?": thanks, or a reminder (each a path of its own). */
const clickBranch = (name: string, within: string, before: unknown[] = []) => ({
  name,
  trigger: { event: 'signup' },
  steps: [
    { id: 'welcome', type: 'email', subject: 'Welcome', html },
    ...before,
    { id: 'clicked', type: 'branch', if: { clicked: 'welcome', within }, then: 'thanks', else: 'reminder' },
    { id: 'thanks', type: 'email', subject: 'Thanks for looking', text: 'thanks' },
    { id: 'reminder', type: 'email', subject: 'Did you see this?', text: 'reminder' },
  ],
});

interface Row {
  step_id: string;
  state: string;
  reason: string | null;
  due_at: Date;
  sent_at: Date | null;
}

describe('a workflow branch on a click', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('branch_steps');
  });
  afterAll(async () => harness.stop());

  async function enrol(account: number, workflow: unknown, contact: ContactSnapshot = newContact()) {
    const [stored] = await harness.importWorkflow(account, workflow);
    await harness.publishEvent(account, contact, 'signup');
    await harness.waitForState(account, contact.id, 'welcome', 'sent');
    return { contact, workflowId: stored!.id };
  }

  async function click(account: number, contactId: number, workflowId: number, occurredAt: Date = new Date()) {
    const hitId = randomUUID();
    await harness.publish(emailClickedV1, {
      hit_id: hitId,
      account_id: account,
      contact_id: contactId,
      workflow_id: workflowId,
      step: 'welcome',
      sent_at: new Date().toISOString(),
      occurred_at: occurredAt.toISOString(),
      machine: false,
      url: 'https://shop.test/offer',
      link: 0,
    });
    await harness.waitProcessed(`engagement:${hitId}`);
  }

  const rows = async (account: number, contactId: number) =>
    (
      await harness.pool.query<Row>('SELECT step_id, state, reason, due_at, sent_at FROM sends WHERE account_id = $1 AND contact_id = $2 ORDER BY id', [
        account,
        contactId,
      ])
    ).rows;
  const row = async (account: number, contactId: number, stepId: string) => (await rows(account, contactId)).find((entry) => entry.step_id === stepId);
  const subjects = (contact: ContactSnapshot) => harness.sink.messagesTo(contact.email).map((email) => email.parsed.subject);
  const branchedLines = async (account: number, contactId: number) =>
    (await harness.pool.query<{ reason: string }>(`SELECT reason FROM delivery_log WHERE account_id = $1 AND contact_id = $2 AND outcome = 'branched'`, [account, contactId]))
      .rows;

  it('waits for the click; a click within the time goes to then at once (not at the deadline), and the else side never runs', async () => {
    const account = newAccountId();
    const { contact, workflowId } = await enrol(account, clickBranch('Then on a click', '1h'));
    const waiting = await harness.waitForState(account, contact.id, 'clicked', 'waiting');
    expect(waiting.reason).toMatch(/^waiting for a click on "welcome" until /);

    await click(account, contact.id, workflowId);
    await harness.waitForState(account, contact.id, 'thanks', 'sent');
    expect(await row(account, contact.id, 'clicked')).toMatchObject({ state: 'branched', reason: 'then: clicked "welcome" within 1h' });
    expect(await row(account, contact.id, 'reminder')).toBeUndefined();
    expect(subjects(contact)).toEqual(['Welcome', 'Thanks for looking']);
    // The branch is not one of the contact's emails.
    const emails = await harness.call<{ data: Array<{ step_id: string }> }>(account, 'GET', `/contacts/${contact.id}/emails`);
    expect(emails.body.data.map((email) => email.step_id).sort()).toEqual(['thanks', 'welcome']);
  });

  it('with no click, goes to else at the email\'s send time + within, and a click after the deadline changes nothing', async () => {
    const account = newAccountId();
    const { contact, workflowId } = await enrol(account, clickBranch('Else at the deadline', '2s'));
    const welcome = (await row(account, contact.id, 'welcome'))!;
    const waiting = await harness.waitForState(account, contact.id, 'clicked', 'waiting');
    expect(waiting.reason).toBe(`waiting for a click on "welcome" until ${new Date(welcome.sent_at!.getTime() + 2000).toISOString()}`);
    // A click stamped after the deadline arrives while the branch still waits: it is left to the deadline.
    await click(account, contact.id, workflowId, new Date(welcome.sent_at!.getTime() + 60_000));
    expect((await row(account, contact.id, 'clicked'))!.state).toBe('waiting');

    await harness.waitForState(account, contact.id, 'reminder', 'sent');
    const reminder = (await row(account, contact.id, 'reminder'))!;
    expect(reminder.sent_at!.getTime() - welcome.sent_at!.getTime()).toBeGreaterThanOrEqual(2000);
    expect(await row(account, contact.id, 'clicked')).toMatchObject({ state: 'branched', reason: 'else: no click on "welcome" within 2s' });

    await click(account, contact.id, workflowId);
    expect(await row(account, contact.id, 'thanks')).toBeUndefined();
    expect(subjects(contact)).toEqual(['Welcome', 'Did you see this?']);
    expect(await branchedLines(account, contact.id)).toEqual([{ reason: 'else: no click on "welcome" within 2s' }]);
  });

  it('a click during a wait before the branch is read when the run reaches it: then, after the wait', async () => {
    const account = newAccountId();
    const { contact, workflowId } = await enrol(account, clickBranch('Clicked before the branch', '1d', [{ id: 'pause', type: 'wait', duration: '2s' }]));
    expect((await row(account, contact.id, 'clicked'))!.state).toBe('pending');
    await click(account, contact.id, workflowId);
    expect((await row(account, contact.id, 'clicked'))!.state).toBe('pending');

    await harness.waitForState(account, contact.id, 'thanks', 'sent');
    const welcome = (await row(account, contact.id, 'welcome'))!;
    expect((await row(account, contact.id, 'thanks'))!.sent_at!.getTime() - welcome.sent_at!.getTime()).toBeGreaterThanOrEqual(2000);
    expect(await row(account, contact.id, 'reminder')).toBeUndefined();
  });

  it('without else, the run ends on the else side; the then path runs on to the end of the steps', async () => {
    const account = newAccountId();
    const workflow = {
      name: 'No else',
      trigger: { event: 'signup' },
      steps: [
        { id: 'welcome', type: 'email', subject: 'Welcome', html },
        { id: 'clicked', type: 'branch', if: { clicked: 'welcome', within: '1s' }, then: 'thanks' },
        { id: 'thanks', type: 'email', subject: 'Thanks for looking', text: 'thanks' },
        { id: 'more', type: 'email', subject: 'More', text: 'more' },
      ],
    };
    const idle = await enrol(account, workflow);
    await waitFor(async () => ((await row(account, idle.contact.id, 'clicked'))?.state === 'branched' ? true : undefined), { what: 'the else side' });
    expect((await row(account, idle.contact.id, 'clicked'))!.reason).toBe('else: no click on "welcome" within 1s; the run ends');
    expect((await rows(account, idle.contact.id)).map((entry) => entry.step_id)).toEqual(['welcome', 'clicked']);

    const reader = newContact();
    await harness.publishEvent(account, reader, 'signup');
    await harness.waitForState(account, reader.id, 'clicked', 'waiting');
    await click(account, reader.id, idle.workflowId);
    await harness.waitForState(account, reader.id, 'more', 'sent');
    expect(subjects(reader)).toEqual(['Welcome', 'Thanks for looking', 'More']);
  });

  it('decides once when a click and the deadline meet: two deciders of one waiting branch, one takes it', async () => {
    const account = newAccountId();
    const { contact, workflowId } = await enrol(account, clickBranch('Race', '1h'));
    await harness.waitForState(account, contact.id, 'clicked', 'waiting');
    const branch = (
      await harness.pool.query<{ id: string; run_id: string }>(`SELECT id, run_id FROM sends WHERE account_id = $1 AND contact_id = $2 AND step_id = 'clicked'`, [account, contact.id])
    ).rows[0]!;
    const workflow = (await findWorkflow(harness.pool, workflowId))!;
    const input = {
      branch: { id: Number(branch.id), run_id: Number(branch.run_id), account_id: account, contact_id: contact.id, workflow_id: workflowId, step_id: 'clicked' },
      fence: 'waiting' as const,
      workflow,
      stopBefore: null,
    };
    const decide = (side: 'then' | 'else') => withTransaction(harness.pool, (client) => takeBranch(client, 'mailer.test', { ...input, side, why: `race ${side}` }));
    const results = await Promise.all([decide('then'), decide('else')]);
    expect(results.filter((result) => result.taken)).toHaveLength(1);
    const steps = (await rows(account, contact.id)).map((entry) => entry.step_id);
    expect(steps.filter((step) => step === 'thanks' || step === 'reminder')).toHaveLength(1);
    expect(await branchedLines(account, contact.id)).toHaveLength(1);
  });

  it('clicks landing at the deadline through the service: each contact gets exactly one side', async () => {
    const account = newAccountId();
    const [stored] = await harness.importWorkflow(account, clickBranch('Clicks at the deadline', '2s'));
    const people = Array.from({ length: 12 }, () => newContact());
    for (const contact of people) await harness.publishEvent(account, contact, 'signup');
    for (const contact of people) await harness.waitForState(account, contact.id, 'clicked', 'waiting');
    // Each click is stamped inside the window and arrives as its deadline falls due.
    await Promise.all(
      people.map(async (contact) => {
        const deadline = (await row(account, contact.id, 'clicked'))!.due_at;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline.getTime() - Date.now())));
        await click(account, contact.id, stored!.id, new Date(deadline.getTime() - 1));
      }),
    );
    for (const contact of people) {
      await waitFor(async () => ((await row(account, contact.id, 'clicked'))?.state === 'branched' ? true : undefined), { what: 'the decision' });
      const side = (await row(account, contact.id, 'clicked'))!.reason!.startsWith('then') ? 'thanks' : 'reminder';
      await harness.waitForState(account, contact.id, side, 'sent');
      const steps = (await rows(account, contact.id)).map((entry) => entry.step_id);
      expect(steps).toEqual(['welcome', 'clicked', side]);
      expect(await branchedLines(account, contact.id)).toHaveLength(1);
    }
  });

  it('refuses a branch that asks about a missing, later or non-email step, or jumps to a missing or earlier step: 422 on save and import, nothing saved', async () => {
    const account = newAccountId();
    const steps = (branch: Record<string, unknown>) => ({
      name: 'Bad branch',
      trigger: { event: 'signup' },
      steps: [
        { id: 'welcome', type: 'email', subject: 'Welcome', text: 'w' },
        { id: 'pause', type: 'wait', duration: '1d' },
        { id: 'b', type: 'branch', if: { clicked: 'welcome', within: '2d' }, then: 'next', ...branch },
        { id: 'next', type: 'email', subject: 'Next', text: 'n' },
      ],
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ if: { clicked: 'nope', within: '2d' } }, 'steps.2.if.clicked must name an email step before the branch ("nope": no step has that id)'],
      [{ if: { clicked: 'pause', within: '2d' } }, 'steps.2.if.clicked must name an email step before the branch ("pause": it is a wait step)'],
      [{ if: { clicked: 'next', within: '2d' } }, 'steps.2.if.clicked must name an email step before the branch ("next": it comes after the branch)'],
      [{ then: 'missing' }, 'steps.2.then must name a step of this workflow (no step has the id "missing")'],
      [{ else: 'welcome' }, 'steps.2.else must name a step after the branch ("welcome" is not after it)'],
      [{ else: 'next' }, 'steps.2.else must name another step than then'],
    ];
    for (const [branch, problem] of cases) {
      for (const path of ['/workflows', '/workflows/import']) {
        const answer = await harness.call<{ errors: string[] }>(account, 'POST', path, steps(branch));
        expect([path, answer.status, answer.body.errors]).toEqual([path, 422, [problem]]);
      }
    }
    const within = await harness.call<{ errors: string[] }>(account, 'POST', '/workflows', steps({ if: { clicked: 'welcome', within: 'two days' } }));
    expect(within.status).toBe(422);
    expect(within.body.errors).toEqual([expect.stringMatching(/^steps\.2\.if\.within:? must be a number and a unit/)]);
    expect((await harness.call<{ data: unknown[] }>(account, 'GET', '/workflows')).body.data).toEqual([]);
    expect((await harness.call(account, 'POST', '/workflows', steps({ else: 'pause' }))).status).toBe(422);
    expect((await harness.call(account, 'POST', '/workflows', steps({}))).status).toBe(201);
  });
});
