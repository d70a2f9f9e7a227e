import { contactCreatedV1 } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const welcome = (name: string, event = 'signup') => ({
  name,
  trigger: { event },
  fallbacks: { first_name: 'friend' },
  steps: [{ id: 'hello', type: 'email', subject: 'Hi {{ first_name }}', html: '<p>Hello {{ first_name }}</p>' }],
});

describe("automation's internal routes for the account app: workflows, previews, activity", () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('app_workflows');
  });
  afterAll(async () => harness.stop());

  const call = <T>(accountId: number, method: string, path: string, json?: unknown) => harness.call<T>(accountId, method, path, json);

  it('creates, lists, replaces by id (a rename keeps the id) and refuses with every problem and its path; another account gets 404', async () => {
    const account = newAccountId();
    const created = await call<{ data: { id: number } }>(account, 'POST', '/workflows', welcome('Welcome'));
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await call(account, 'POST', '/workflows', welcome('Welcome'))).body).toEqual({ errors: ['name: the account already has a workflow named "Welcome"'] });
    const refused = await call<{ errors: string[] }>(account, 'PUT', `/workflows/${id}`, {
      ...welcome('Renamed'),
      steps: [{ id: 'hello', type: 'email', subject: 'Hi {{ first_name' }, { id: 'w', type: 'wait', duration: '3 days' }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((message) => message.split(/[: ]/)[0])).toEqual(['steps.0.html', 'steps.1.duration']);
    expect((await call(account, 'PUT', `/workflows/${id}`, welcome('Renamed', 'joined'))).status).toBe(200);
    const list = await call<{ data: Array<{ id: number; name: string; trigger_event: string; enabled: boolean; sent_last_7_days: number }> }>(account, 'GET', '/workflows');
    expect(list.body.data).toEqual([expect.objectContaining({ id, name: 'Renamed', trigger_event: 'joined', enabled: true, sent_last_7_days: 0 })]);
    const other = newAccountId();
    for (const [method, path] of [['GET', `/workflows/${id}`], ['PUT', `/workflows/${id}`], ['POST', `/workflows/${id}/disable`], ['POST', `/workflows/${id}/steps/hello/preview`]] as const) {
      const answer = await call(other, method, path, method === 'GET' ? undefined : method === 'PUT' ? welcome('Stolen') : { contact_email: 'x@example.test' });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
    }
    expect((await call<{ data: unknown[] }>(other, 'GET', '/workflows')).body.data).toEqual([]);
  });

  it('a disabled workflow enrols no one; enabled again, the next event enrols and sends; the activity says so, filtered and paged', async () => {
    const account = newAccountId();
    const id = (await call<{ data: { id: number } }>(account, 'POST', '/workflows', welcome('Gate'))).body.data.id;
    expect((await call(account, 'POST', `/workflows/${id}/disable`)).status).toBe(200);
    const first = newContact();
    // Disabled, its trigger is no longer routed: automation never sees the event.
    expect(await harness.publishEventIfRouted(account, first, 'signup')).toBeUndefined();
    expect(await harness.ledger(account, first.id)).toEqual([]);
    expect((await call(account, 'POST', `/workflows/${id}/enable`)).status).toBe(200);
    const contacts = [newContact(), newContact(), newContact()];
    for (const contact of contacts) await harness.publishEvent(account, contact, 'signup');
    for (const contact of contacts) await harness.waitForState(account, contact.id, 'hello', 'sent');

    type Page = { data: Array<{ email: string | null; outcome: string; workflow: string | null; reason: string | null }>; next_before: string | null };
    const sent = await call<Page>(account, 'GET', '/activity?outcome=sent');
    expect(sent.body.data.map((entry) => entry.email).sort()).toEqual(contacts.map((c) => c.email).sort());
    expect(sent.body.data.every((entry) => entry.workflow === 'Gate')).toBe(true);
    // Two entries a page: every entry exactly once, newest first, until the cursor runs out.
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const query: string = `/activity?workflow=${id}&limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`;
      const page: { status: number; body: Page } = await call<Page>(account, 'GET', query);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((entry) => `${entry.email}:${entry.outcome}`));
      before = page.body.next_before;
    } while (before);
    expect(seen).toHaveLength(6); // enrolled + sent for each of the three
    expect(new Set(seen).size).toBe(6);
    expect(seen.some((entry) => entry.startsWith(first.email))).toBe(false);
    const byEmail = await call<Page>(account, 'GET', `/activity?email=${encodeURIComponent(contacts[0]!.email.toUpperCase())}`);
    expect(byEmail.body.data.map((entry) => entry.outcome).sort()).toEqual(['enrolled', 'sent']);
    expect((await call<Page>(newAccountId(), 'GET', '/activity')).body.data).toEqual([]);
    expect((await call(account, 'GET', '/activity?outcome=exploded')).status).toBe(422);
    expect((await call(account, 'GET', '/activity?before=not-a-cursor')).status).toBe(422);
  });

  it('previews a step for a known contact (fallbacks for an unknown one) with a sample unsubscribe link, and test-sends it outside the ledger', async () => {
    const account = newAccountId();
    const id = (await call<{ data: { id: number } }>(account, 'POST', '/workflows', welcome('Preview'))).body.data.id;
    const ada = newContact({ first_name: 'Ada' });
    await harness.publish(contactCreatedV1, { account_id: account, contact: ada, occurred_at: new Date().toISOString() });
    await waitFor(async () => ((await harness.pool.query('SELECT 1 FROM contacts WHERE account_id = $1 AND contact_id = $2', [account, ada.id])).rowCount ? true : undefined), {
      what: 'the contact in automation\'s projection',
    });
    type Sample = { data: { subject: string; html: string; text: string; known_contact: boolean } };
    const known = await call<Sample>(account, 'POST', `/workflows/${id}/steps/hello/preview`, { contact_email: ada.email });
    expect(known.body.data).toEqual(expect.objectContaining({ subject: 'Hi Ada', known_contact: true }));
    expect(known.body.data.html).toContain('/unsubscribe/sample');
    const unknown = await call<Sample>(account, 'POST', `/workflows/${id}/steps/hello/preview`, { contact_email: 'nobody@example.test' });
    expect(unknown.body.data).toEqual(expect.objectContaining({ subject: 'Hi friend', known_contact: false }));
    expect((await call(account, 'POST', `/workflows/${id}/steps/hello/preview`, { contact_email: 'not an address' })).status).toBe(422);
    expect((await call(account, 'POST', `/workflows/${id}/steps/missing/preview`, { contact_email: ada.email })).status).toBe(404);

    const to = `tester-${Date.now()}@example.test`;
    expect((await call<{ data: { outcome: string } }>(account, 'POST', `/workflows/${id}/steps/hello/test`, { to })).body.data.outcome).toBe('sent');
    expect(harness.sink.messagesTo(to).map((message) => message.parsed.subject)).toEqual(['[Test] Hi friend']);
    expect(await harness.ledger(account, ada.id)).toEqual([]);

    const campaign = await call<Sample>(account, 'POST', '/previews/campaign', {
      content: { subject: 'News for {{ first_name }}', preview_text: 'Inside', html: '<body><p>Hi</p></body>', text: null, from_name: null, from_address: null },
      contact_email: ada.email,
    });
    expect(campaign.body.data.subject).toBe('News for Ada');
    expect(campaign.body.data.html).toMatch(/<body><div style="display:none[^>]*>Inside<\/div><p>Hi<\/p>/);
  });
});
