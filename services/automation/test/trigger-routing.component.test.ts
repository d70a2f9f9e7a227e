import { BrokerUnavailableError, createLogger, triggerRoutingKey } from '@mailer/shared';
import { brokerRoutes, startTcpProxy, waitFor } from '@mailer/testing';
import { EmailRenderer } from '../src/domain/rendering/render-email';
import { createTriggerRouting } from '../src/domain/routing/trigger-routing';
import { createWorkflow, switchWorkflow, updateWorkflow } from '../src/domain/workflows/save-workflow';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const welcome = (name: string, event: string) => ({ name, trigger: { event }, steps: [{ id: 'hello', type: 'email', subject: 'Hi', text: 'Hi' }] });
const silent = createLogger('trigger-routing-test', { level: 'silent' });

describe('product events reach automation only when an enabled workflow triggers on them', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('trigger_routing');
  });
  afterAll(async () => harness.stop());

  const writes = () => harness.instances[0]!.workflowWrites;
  const routed = (account: number, event: string) => harness.publishEventIfRouted(account, newContact(), event);

  it('an event no workflow triggers on is not routed; an import routes its trigger before it returns, and the event then sends', async () => {
    const account = newAccountId();
    expect(await routed(account, 'signup')).toBeUndefined();
    await harness.importWorkflow(account, welcome('Welcome', 'signup'));
    const contact = newContact();
    expect(await harness.publishEventIfRouted(account, contact, 'signup')).toBeDefined();
    await harness.waitForState(account, contact.id, 'hello', 'sent');
    // Per account: another account's event of the same name stays unrouted.
    expect(await routed(newAccountId(), 'signup')).toBeUndefined();
  });

  it("disabling unroutes the trigger before the answer, enabling routes it again; another account's workflow on the same name keeps its own", async () => {
    const [account, other] = [newAccountId(), newAccountId()];
    const { id } = await createWorkflow(writes(), account, welcome('Gate', 'joined'));
    await createWorkflow(writes(), other, welcome('Gate', 'joined'));
    expect(await routed(account, 'joined')).toBeDefined();
    await switchWorkflow(writes(), account, id, false);
    expect(await routed(account, 'joined')).toBeUndefined();
    expect(await routed(other, 'joined')).toBeDefined();
    await switchWorkflow(writes(), account, id, true);
    expect(await routed(account, 'joined')).toBeDefined();
  });

  it("changing a workflow's trigger routes the new name and unroutes the old one, unless another workflow still needs it", async () => {
    const account = newAccountId();
    const { id } = await createWorkflow(writes(), account, welcome('First', 'trial_started'));
    await updateWorkflow(writes(), account, id, welcome('First', 'trial_ended'));
    expect(await routed(account, 'trial_ended')).toBeDefined();
    expect(await routed(account, 'trial_started')).toBeUndefined();
    const second = await createWorkflow(writes(), account, welcome('Second', 'trial_ended'));
    await switchWorkflow(writes(), account, second.id, false);
    expect(await routed(account, 'trial_ended')).toBeDefined();
  });

  it('updating a disabled workflow binds nothing; enabling it routes its new trigger', async () => {
    const account = newAccountId();
    const broker = harness.instances[0]!.broker;
    const bound: string[] = [];
    const recording = {
      setQueueBindings: (queue: string, keys: { bind: readonly string[]; unbind: readonly string[] }) => {
        bound.push(...keys.bind);
        return broker.setQueueBindings(queue, keys);
      },
    };
    const watched = { pool: harness.pool, renderer: new EmailRenderer(), routes: createTriggerRouting({ pool: harness.pool, router: recording, logger: silent }) };
    const { id } = await createWorkflow(watched, account, welcome('Paused', 'paused_before'));
    await switchWorkflow(watched, account, id, false);
    bound.length = 0;
    await updateWorkflow(watched, account, id, welcome('Paused', 'paused_after'));
    expect(bound).not.toContain(triggerRoutingKey(account, 'paused_after'));
    expect(await routed(account, 'paused_after')).toBeUndefined();
    await switchWorkflow(watched, account, id, true);
    expect(await routed(account, 'paused_after')).toBeDefined();
  });

  it("a workflow written by another process (plain SQL, an older CLI) is routed through the table's NOTIFY", async () => {
    const account = newAccountId();
    await harness.pool.query(
      `INSERT INTO workflows (account_id, name, trigger_event, transactional, definition) VALUES ($1, 'By hand', 'by_hand', false, $2)`,
      [account, JSON.stringify(welcome('By hand', 'by_hand'))],
    );
    await waitFor(async () => ((await routed(account, 'by_hand')) ? true : undefined), { what: 'the hand-written trigger routed' });
    await harness.pool.query('UPDATE workflows SET enabled = false WHERE account_id = $1', [account]);
    await waitFor(async () => ((await routed(account, 'by_hand')) ? undefined : true), { what: 'the disabled trigger unrouted' });
  });

  it('a reconcile binds again every live trigger the broker lost, and unbinds and forgets keys no workflow needs', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, welcome('Kept', 'kept'));
    const kept = triggerRoutingKey(account, 'kept');
    const stale = triggerRoutingKey(account, 'retired');
    // What a lost binding and a key left by a crash between bind and forget look like.
    // Repeated until it holds: the import's own NOTIFY may still start a reconcile that binds it again.
    await waitFor(
      async () => {
        await harness.instances[0]!.broker.setQueueBindings('automation.contact-events', { bind: [stale], unbind: [kept] });
        return (await routed(account, 'kept')) ? undefined : true;
      },
      { what: 'the binding lost' },
    );
    await harness.pool.query('INSERT INTO trigger_routes (routing_key) VALUES ($1)', [stale]);
    await harness.instances[0]!.triggerRouting.reconcile();
    expect(await routed(account, 'kept')).toBeDefined();
    expect(await routed(account, 'retired')).toBeUndefined();
    expect((await harness.pool.query('SELECT 1 FROM trigger_routes WHERE routing_key = $1', [stale])).rowCount).toBe(0);
  });

  it('when the broker cannot route the trigger, the write is refused with a 503 and nothing is saved', async () => {
    const account = newAccountId();
    const brokerDown = {
      setQueueBindings: () => Promise.reject(new BrokerUnavailableError('not connected to the message broker')),
    };
    const failing = { pool: harness.pool, renderer: new EmailRenderer(), routes: createTriggerRouting({ pool: harness.pool, router: brokerDown, logger: silent }) };
    await expect(createWorkflow(failing, account, welcome('Unarmed', 'unarmed'))).rejects.toMatchObject({ code: 'COMMON.UNAVAILABLE' });
    await expect(harness.importWorkflow(account, welcome('Armed', 'armed'))).resolves.toHaveLength(1);
    const { rows } = await harness.pool.query<{ name: string }>('SELECT name FROM workflows WHERE account_id = $1', [account]);
    expect(rows.map((row) => row.name)).toEqual(['Armed']);
  });

  it('while the broker is away a new workflow is refused (503, nothing saved) and a disable stands; after the reconnect the bindings catch up', async () => {
    const amqpUrl = new URL(harness.env.AMQP_URL!);
    const proxy = await startTcpProxy({ host: amqpUrl.hostname, port: Number(amqpUrl.port || 5672) });
    amqpUrl.host = `127.0.0.1:${proxy.port}`;
    const cut = await startAutomationHarness('trigger_routing_cut', { env: { AMQP_URL: amqpUrl.toString() } });
    const ns = cut.env.BROKER_NAMESPACE!;
    const account = newAccountId();
    try {
      const created = await cut.call<{ data: { id: number } }>(account, 'POST', '/workflows', welcome('Before', 'before'));
      expect(created.status).toBe(201);
      expect(await brokerRoutes(ns, triggerRoutingKey(account, 'before'))).toBe(true);

      proxy.cut();
      await waitFor(() => (cut.instances[0]!.broker.isConnected() ? undefined : true), { what: 'the lost connection' });
      const refused = await cut.call(account, 'POST', '/workflows', welcome('During', 'during'));
      expect(refused.status).toBe(503);
      expect((await cut.call<{ data: Array<{ name: string }> }>(account, 'GET', '/workflows')).body.data.map((workflow) => workflow.name)).toEqual(['Before']);
      // Unbinding can wait: the disable stands, and the reconnect's reconcile unbinds.
      expect((await cut.call(account, 'POST', `/workflows/${created.body.data.id}/disable`)).status).toBe(200);
      expect(await brokerRoutes(ns, triggerRoutingKey(account, 'before'))).toBe(true);

      proxy.resume();
      await waitFor(async () => ((await brokerRoutes(ns, triggerRoutingKey(account, 'before'))) ? undefined : true), {
        what: 'the unbinding after the reconnect',
        timeoutMs: 15_000,
      });
    } finally {
      await cut.stop();
      await proxy.close();
    }
  });
});
