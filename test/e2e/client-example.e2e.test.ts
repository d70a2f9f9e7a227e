import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import type { contactPageSchema, contactSchema } from '../../services/contacts/src/entry-points/api/contact-response';
import type { contactChangesSchema, newContactSchema } from '../../services/contacts/src/entry-points/api/contact.schemas';
import type { campaignPageSchema, campaignSchema } from '../../services/campaigns/src/entry-points/api/campaign.json';
import type { acceptedEventSchema, eventInputSchema } from '../../services/events/src/domain/event-input';
import {
  MailerClient,
  MailerRateLimitError,
  MailerValidationError,
  type AcceptedEvent,
  type Campaign,
  type Contact,
  type ContactChanges,
  type NewContact,
  type Page,
  type ProductEvent,
} from '../../packages/client/dist/index';
import { example } from '../../packages/client/dist/example';
import { requestFrom } from './from-address';
import { responseChecker, type Document } from './openapi-tools';
import { startProduct, type Product } from './stack-harness';

// Compile-time: the client's types are exactly what the services' zod schemas accept and answer.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typesAgree: [
  Same<Contact, z.output<typeof contactSchema>>,
  Same<Page<Contact>, z.output<typeof contactPageSchema>>,
  Same<Campaign, z.output<typeof campaignSchema>>,
  Same<Page<Campaign>, z.output<typeof campaignPageSchema>>,
  Same<AcceptedEvent, z.output<typeof acceptedEventSchema>>,
  Same<NewContact, z.input<typeof newContactSchema>>,
  Same<ContactChanges, z.input<typeof contactChangesSchema>>,
  Same<ProductEvent, z.input<typeof eventInputSchema>>,
] = [true, true, true, true, true, true, true, true];

describe('the @mailer/client README example, against the real stack', () => {
  let product: Product;
  let check: ReturnType<typeof responseChecker>;
  beforeAll(async () => {
    product = await startProduct();
    check = responseChecker((await (await fetch(`${product.gateway.url}/api/v1/openapi.json`)).json()) as Document);
  }, 60_000);
  afterAll(() => product?.stop());

  it('is the code the README shows', async () => {
    const root = path.resolve(__dirname, '../../packages/client');
    const source = await readFile(path.join(root, 'src/example.ts'), 'utf8');
    const readme = await readFile(path.join(root, 'README.md'), 'utf8');
    expect(readme).toContain(source.slice(source.indexOf('// README example')).trim());
    expect(typesAgree.every(Boolean)).toBe(true);
  });

  it('creates a contact, lists with filters, sends an event and reports a 422 with its domain_error', async () => {
    const { key } = await product.anAccountWithKey();
    const result = await example(`${product.gateway.url}/api/v1`, product.gateway.eventsUrl, key);
    expect(result.ada).toMatchObject({ email: 'ada@example.test', first_name: 'Ada', tags: ['trial'], subscribed: true });
    expect(result.page).toMatchObject({ data: [{ id: result.ada.id }], meta: { total_count: 1, per_page: 10 } });
    expect(result.accepted).toMatchObject({ event: 'trial_started', email: 'ada@example.test' });
    expect(result.refusal).toMatch(/domain_error: no_mx/);
    expect(check('createContact', 201, { data: result.ada })).toEqual([]);
    expect(check('listContacts', 200, result.page)).toEqual([]);
    expect(check('sendEvent', 202, { data: result.accepted })).toEqual([]);
  });

  it('reads, updates, deletes, lists campaigns and throws typed errors', async () => {
    const { key } = await product.anAccountWithKey();
    const client = new MailerClient({ baseUrl: `${product.gateway.url}/api/v1`, eventsUrl: product.gateway.eventsUrl, apiKey: key });
    const created = await client.createContact({ email: 'grace@example.test' });
    expect(await client.getContact(created.id)).toEqual(created);
    const updated = await client.updateContact(created.id, { last_name: 'Hopper', tags: ['navy'] });
    expect(updated).toMatchObject({ last_name: 'Hopper', tags: ['navy'] });
    await client.deleteContact(created.id);
    await expect(client.getContact(created.id)).rejects.toMatchObject({ name: 'MailerApiError', status: 404 });
    await expect(client.createContact({ email: 'x@mailinator.com' })).rejects.toBeInstanceOf(MailerValidationError);
    await expect(client.createContact({ email: 'x@mailinator.com' })).rejects.toMatchObject({ domainError: 'disposable' });
    expect(await client.listCampaigns({ status: 'sent', per_page: 5 })).toEqual({ data: [], meta: { current_page: 1, total_pages: 0, total_count: 0, per_page: 5 } });
    await expect(client.getCampaign(999_999_999)).rejects.toMatchObject({ status: 404 });
  });

  it('waits Retry-After between bounded retries of a real 429, then throws MailerRateLimitError', async () => {
    const { key } = await product.anAccountWithKey();
    // A client address of its own (any 127/8 address is this host) whose per-IP window the test spends.
    const address = `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;
    let remaining = Number.POSITIVE_INFINITY;
    while (remaining > 0) {
      const batch = await Promise.all(Array.from({ length: 25 }, () => requestFrom(address, `${product.gateway.url}/api/v1/openapi.json`, 'HEAD')));
      remaining = Math.min(...batch.map((answer) => Number(answer.headers.get('x-ratelimit-remaining') ?? 0)));
    }
    let calls = 0;
    const waits: number[] = [];
    // The real transport, from that address; and a clock that records the waits instead of spending 2 minutes.
    const transport: typeof fetch = async (url, init) => {
      calls += 1;
      const answer = await requestFrom(address, String(url), init?.method ?? 'GET', init?.headers as Record<string, string>);
      return new Response(answer.text, { status: answer.status, headers: answer.headers });
    };
    const options = { baseUrl: `${product.gateway.url}/api/v1`, eventsUrl: product.gateway.eventsUrl, apiKey: key, fetch: transport };
    const client = new MailerClient({ ...options, maxRetries: 2, sleep: async (ms) => void waits.push(ms) });
    const failure = await client.listContacts().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailerRateLimitError);
    expect(failure).toMatchObject({ status: 429, retryAfterSeconds: 60 });
    expect(calls).toBe(3);
    expect(waits).toEqual([60_000, 60_000]);
    // A Retry-After beyond what the caller allows is not waited for at all.
    const impatient = new MailerClient({ ...options, maxRetryAfterSeconds: 5 });
    await expect(impatient.listContacts()).rejects.toBeInstanceOf(MailerRateLimitError);
    expect(calls).toBe(4);
  });
});
