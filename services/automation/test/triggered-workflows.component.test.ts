import { randomUUID } from 'node:crypto';
import { countingPool, waitFor } from '@mailer/testing';
import { handleProductEvent } from '../src/domain/enrolment/handle-product-event';
import { TriggeredWorkflowsCache } from '../src/domain/enrolment/triggered-workflows-cache';
import { enrichedEvent, newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const welcome = (name: string, subject: string) => ({ name, trigger: { event: 'signup' }, steps: [{ id: 'hello', type: 'email', subject, text: 'Hi' }] });

describe("an event's workflows are kept between events, and the enrolment checks they are still the account's", () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('triggered_workflows');
  });
  afterAll(async () => harness.stop());

  const subjectsTo = (email: string) => harness.sink.messagesTo(email).map((message) => message.parsed.subject);

  it('a workflow edited by plain SQL after an event is sent as edited to the next event', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, welcome('Welcome', 'Version 1'));
    const first = newContact();
    await harness.publishEvent(account, first, 'signup');
    await harness.waitForState(account, first.id, 'hello', 'sent');

    // No notification reaches any cache: only the statement's own check can see this.
    await harness.pool.query(`UPDATE workflows SET definition = jsonb_set(definition, '{steps,0,subject}', '"Version 2"') WHERE account_id = $1`, [account]);
    const second = newContact();
    await harness.publishEvent(account, second, 'signup');
    await harness.waitForState(account, second.id, 'hello', 'sent');
    expect([subjectsTo(first.email), subjectsTo(second.email)]).toEqual([['Version 1'], ['Version 2']]);
  });

  it('a workflow disabled by plain SQL after an event enrols no one from the next event on (another one on the trigger still does)', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, welcome('Kept', 'Kept'));
    await harness.importWorkflow(account, welcome('Stopped', 'Stopped'));
    const first = newContact();
    await harness.publishEvent(account, first, 'signup');
    await waitFor(async () => ((await harness.ledger(account, first.id)).filter((row) => row.state === 'sent').length === 2 ? true : undefined));

    await harness.pool.query(`UPDATE workflows SET enabled = false WHERE account_id = $1 AND name = 'Stopped'`, [account]);
    const second = newContact();
    await harness.publishEvent(account, second, 'signup');
    await harness.waitForState(account, second.id, 'hello', 'sent');
    expect(subjectsTo(second.email)).toEqual(['Kept']);
    expect(await harness.ledger(account, second.id)).toHaveLength(1);
  });

  it('costs one statement per event once read, three when the workflows changed meanwhile', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, welcome('Counted', 'Hi'));
    const counted = countingPool(harness.pool);
    const options = { mailDomain: 'example.test', claimNow: () => undefined, leaseMs: 60_000, workflows: new TriggeredWorkflowsCache(counted.pool) };
    const enrol = async () => {
      const before = counted.statements();
      const outcome = await handleProductEvent(counted.pool, randomUUID(), enrichedEvent(account, newContact(), 'signup', {}), options);
      return { enrolled: outcome.enrolled, statements: counted.statements() - before };
    };
    // The first event of its kind reads the workflows; the next ones do not.
    expect(await enrol()).toEqual({ enrolled: 1, statements: 2 });
    expect(await enrol()).toEqual({ enrolled: 1, statements: 1 });
    // Changed: the enrolment writes nothing, the workflows are read again, the enrolment is repeated.
    await harness.importWorkflow(account, welcome('Counted', 'Hi again'));
    expect(await enrol()).toEqual({ enrolled: 1, statements: 3 });
    expect(await enrol()).toEqual({ enrolled: 1, statements: 1 });
  });
});
