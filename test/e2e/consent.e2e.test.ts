import { waitFor } from '@mailer/testing';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { startProduct, type Product } from './stack-harness';

/** One email at once on `signup`: every enrolment either sends it or records why not. */
const welcome = (transactional = false) => ({
  name: transactional ? 'Receipt' : 'Welcome',
  trigger: { event: 'signup' },
  transactional,
  steps: [{ id: 'hello', type: 'email', subject: 'Hello', html: '<p>Hello.</p>' }],
});

interface ContactJson {
  id: number;
  email: string;
  subscribed: boolean;
  source: string;
}

describe('consent: a "no" outlives the contact, and a suppressed address is never emailed', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct();
  }, 60_000);
  afterAll(() => product?.stop());

  async function accountWithWorkflows(...workflows: ReturnType<typeof welcome>[]) {
    const account = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, account.accountId, workflows);
    return account;
  }

  const unique = (local: string) => `${local}.${Math.random().toString(36).slice(2, 8)}@example.test`;

  async function contactByEmail(key: string, email: string): Promise<ContactJson | undefined> {
    const listed = await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(email)}`);
    return ((listed.body?.data ?? []) as ContactJson[])[0];
  }

  /**
   * The ledger's verdict on the step for this contact, once the step has an outcome; a skip must say
   * the same words in the delivery log (what `workflows log` shows).
   */
  async function stepOutcome(accountId: number, contactId: number) {
    const outcome = await waitFor(
      async () => {
        const { rows } = await product.automation.pool.query<{ state: string; reason: string | null }>(
          `SELECT state, reason FROM sends WHERE account_id = $1 AND contact_id = $2 AND state IN ('sent', 'skipped')`,
          [accountId, contactId],
        );
        return rows[0];
      },
      { timeoutMs: 15_000, what: 'the step outcome' },
    );
    if (outcome.state === 'skipped') {
      const logged = await product.automation.pool.query<{ reason: string }>(
        `SELECT reason FROM delivery_log WHERE account_id = $1 AND contact_id = $2 AND outcome = 'skipped'`,
        [accountId, contactId],
      );
      expect(logged.rows).toEqual([{ reason: outcome.reason }]);
    }
    return outcome;
  }

  /**
   * The step skipped for `reason`. Otherwise the failure carries what automation held about the
   * contact (its projection's consent and `fact_at`, every log line), so a rare failure shows which
   * write the send took its consent from.
   */
  async function expectSkipped(accountId: number, contactId: number, reason: string) {
    const outcome = await stepOutcome(accountId, contactId);
    if (outcome.state === 'skipped' && outcome.reason === reason) return;
    const { rows } = await product.automation.pool.query<{ projection: unknown; log: unknown }>(
      `SELECT (SELECT row_to_json(c) FROM (SELECT subscribed, suppression, deleted, fact_at, updated_at FROM contacts
                WHERE account_id = $1 AND contact_id = $2) c) AS projection,
              (SELECT json_agg(l ORDER BY l.id) FROM (SELECT id, outcome, reason, created_at FROM delivery_log
                WHERE account_id = $1 AND contact_id = $2) l) AS log`,
      [accountId, contactId],
    );
    throw new Error(`expected the step skipped (${reason}), found ${JSON.stringify(outcome)}; automation held ${JSON.stringify(rows[0])}`);
  }

  async function signupAndWaitForContact(key: string, email: string) {
    expect((await product.sendEvent(key, { event: 'signup', email })).status).toBe(202);
    return waitFor(() => contactByEmail(key, email), { what: `the contact ${email}` });
  }

  it('an event for an unsubscribed contact leaves it unsubscribed and sends nothing', async () => {
    const { key, accountId } = await accountWithWorkflows(welcome());
    const email = unique('unsubscribed');
    const created = await product.api(key, 'POST', '/contacts', { email, subscribed: true });
    const id = (created.body?.data as ContactJson).id;
    expect((await product.api(key, 'PATCH', `/contacts/${id}`, { subscribed: false })).status).toBe(200);

    expect((await product.sendEvent(key, { event: 'signup', email, properties: { first_name: 'Una' } })).status).toBe(202);
    await expectSkipped(accountId, id, 'unsubscribed');
    const after = (await product.api(key, 'GET', `/contacts/${id}`)).body?.data as ContactJson;
    expect(after).toMatchObject({ subscribed: false, source: null });
    expect(product.smtp.messagesTo(email)).toHaveLength(0);
  });

  it('an event for a contact that never subscribed keeps it so, and the skip says "not subscribed"', async () => {
    const { key, accountId } = await accountWithWorkflows(welcome());
    const email = unique('never');
    const created = await product.api(key, 'POST', '/contacts', { email });
    const id = (created.body?.data as ContactJson).id;
    await product.sendEvent(key, { event: 'signup', email });
    await expectSkipped(accountId, id, 'not subscribed');
    expect(((await product.api(key, 'GET', `/contacts/${id}`)).body?.data as ContactJson).subscribed).toBe(false);
  });

  it('unsubscribe (one-click) -> delete -> event: the re-created contact is unsubscribed and nothing is sent', async () => {
    const { key, accountId } = await accountWithWorkflows(welcome());
    const email = unique('gone');
    const first = await signupAndWaitForContact(key, email);
    const [mail] = await waitFor(() => {
      const received = product.smtp.messagesTo(email);
      return received.length > 0 ? received : undefined;
    }, { timeoutMs: 15_000, what: 'the first email' });
    const link = /^<(.+)>$/.exec(mail?.headers.get('list-unsubscribe') ?? '')?.[1];
    const oneClick = await fetch(link!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(oneClick.status).toBe(200);
    await waitFor(async () => ((await contactByEmail(key, email))?.subscribed === false ? true : undefined), { what: 'the unsubscribe' });

    expect((await product.api(key, 'DELETE', `/contacts/${first.id}`)).status).toBe(204);
    const again = await signupAndWaitForContact(key, email);
    expect(again.id).not.toBe(first.id);
    expect(again).toMatchObject({ subscribed: false, source: 'event' });
    await expectSkipped(accountId, again.id, 'unsubscribed');
    expect(product.smtp.messagesTo(email)).toHaveLength(1);
  });

  it('PATCH subscribed:false -> delete -> event: still suppressed, even for a transactional workflow', async () => {
    const { key, accountId } = await accountWithWorkflows(welcome(true));
    const email = unique('patched');
    const created = await product.api(key, 'POST', '/contacts', { email, subscribed: true });
    const id = (created.body?.data as ContactJson).id;
    await product.api(key, 'PATCH', `/contacts/${id}`, { subscribed: false });
    await product.api(key, 'DELETE', `/contacts/${id}`);

    const again = await signupAndWaitForContact(key, email.toUpperCase().replace('@EXAMPLE.TEST', '@Example.Test'));
    expect(again.subscribed).toBe(false);
    await expectSkipped(accountId, again.id, 'suppressed');
    expect(product.smtp.messagesTo(email)).toHaveLength(0);
  });

  it('only an explicit subscribed:true by the account holder lifts the suppression, and the lift is recorded', async () => {
    const { key, accountId } = await accountWithWorkflows(welcome());
    const email = unique('lifted');
    const created = await product.api(key, 'POST', '/contacts', { email, subscribed: true });
    const id = (created.body?.data as ContactJson).id;
    await product.api(key, 'PATCH', `/contacts/${id}`, { subscribed: false });
    await product.api(key, 'DELETE', `/contacts/${id}`);
    // Re-created over the API without saying yes: still suppressed.
    const quiet = await product.api(key, 'POST', '/contacts', { email, first_name: 'Lee' });
    expect((quiet.body?.data as ContactJson).subscribed).toBe(false);
    const standing = `SELECT reason, source, lifted_at, lifted_by FROM suppressions WHERE account_id = $1 AND address = lower($2) ORDER BY id`;
    expect((await product.contacts.pool.query(standing, [accountId, email])).rows).toEqual([
      { reason: 'unsubscribed', source: 'api', lifted_at: null, lifted_by: null },
    ]);

    const yes = await product.api(key, 'PATCH', `/contacts/${(quiet.body?.data as ContactJson).id}`, { subscribed: true });
    expect((yes.body?.data as ContactJson).subscribed).toBe(true);
    expect((await product.contacts.pool.query(standing, [accountId, email])).rows).toEqual([
      { reason: 'unsubscribed', source: 'api', lifted_at: expect.any(Date), lifted_by: expect.stringMatching(/account holder/) },
    ]);
    await product.sendEvent(key, { event: 'signup', email });
    expect(await stepOutcome(accountId, (quiet.body?.data as ContactJson).id)).toEqual({ state: 'sent', reason: null });
  });

  it('an event for an NXDOMAIN address is 422 with contacts\' body, and nothing reaches the broker', async () => {
    const { key } = await accountWithWorkflows(welcome());
    const published = async () =>
      (await product.gateway.metrics.getSingleMetric('mailer_messages_published_total')?.get())?.values.reduce((sum, value) => sum + value.value, 0) ?? 0;
    const before = await published();
    const refused = await product.sendEvent(key, { event: 'signup', email: 'ann@missing.test' });
    expect(refused.status).toBe(422);
    const fromContacts = await product.api(key, 'POST', '/contacts', { email: 'ann@missing.test' });
    expect(refused.body).toEqual(fromContacts.body);
    expect(refused.body).toEqual({ errors: [expect.any(String)], domain_error: 'no_mx' });
    expect(await published()).toBe(before);
    expect(await contactByEmail(key, 'ann@missing.test')).toBeUndefined();
  });
});
