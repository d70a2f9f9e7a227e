import { importCampaigns, prepareCampaignImport } from '../../services/campaigns/src/domain/import-campaigns';
import { startProduct, type Product } from './stack-harness';

describe('contacts and campaigns through the gateway', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct();
  }, 60_000);
  afterAll(() => product?.stop());

  it('creates, lists, reads, updates and deletes a contact with an API key, with rate-limit headers on each answer', async () => {
    const { key } = await product.anAccountWithKey();
    const created = await product.api(key, 'POST', '/contacts', {
      contact: { email: 'Ada@Example.test', first_name: 'Ada', tags: ['trial', ' beta '], custom_properties: { plan: 'pro' } },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const contact = created.body?.data as { id: number; email: string; tags: string[]; subscribed: boolean; source: string | null };
    // The address rule keeps the local part as given and lower-cases the domain.
    expect(contact).toMatchObject({ email: 'Ada@example.test', tags: ['beta', 'trial'], subscribed: false });

    const listed = await product.api(key, 'GET', '/contacts?q=ada&subscribed=false');
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ data: [{ id: contact.id }], meta: { current_page: 1, total_pages: 1, total_count: 1, per_page: 25 } });

    const patched = await product.api(key, 'PATCH', `/contacts/${contact.id}`, { subscribed: true, tags: ['vip'] });
    expect(patched.body?.data).toMatchObject({ subscribed: true, tags: ['beta', 'trial', 'vip'] });

    const deleted = await fetch(`${product.gateway.url}/api/v1/contacts/${contact.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await product.api(key, 'GET', `/contacts/${contact.id}`)).status).toBe(404);
  });

  it('answers 422 with domain_error for a domain without MX or A records, through the gateway', async () => {
    const { key } = await product.anAccountWithKey();
    const refused = await product.api(key, 'POST', '/contacts', { email: 'someone@missing.test' });
    expect(refused).toMatchObject({ status: 422, body: { errors: [expect.any(String)], domain_error: 'no_mx' } });
  });

  it("never shows one account's contacts or campaigns to another account's key", async () => {
    const a = await product.anAccountWithKey();
    const b = await product.anAccountWithKey();
    const contact = await product.api(a.key, 'POST', '/contacts', { email: 'private@example.test' });
    const contactId = (contact.body?.data as { id: number }).id;
    const [campaignId] = await importCampaigns(
      product.campaigns.pool,
      a.accountId,
      prepareCampaignImport([{ name: 'Launch', title: 'We are live', status: 'draft' }]),
    );

    expect((await product.api(a.key, 'GET', `/campaigns/${campaignId}`)).body?.data).toMatchObject({ name: 'Launch', status: 'draft', send_at: null });
    expect((await product.api(b.key, 'GET', `/contacts/${contactId}`)).status).toBe(404);
    expect((await product.api(b.key, 'PATCH', `/contacts/${contactId}`, { first_name: 'Mallory' })).status).toBe(404);
    expect((await product.api(b.key, 'DELETE', `/contacts/${contactId}`)).status).toBe(404);
    expect((await product.api(b.key, 'GET', `/campaigns/${campaignId}`)).status).toBe(404);
    expect((await product.api(b.key, 'GET', '/contacts')).body).toMatchObject({ data: [], meta: { total_count: 0 } });
    expect((await product.api(b.key, 'GET', '/campaigns')).body).toMatchObject({ data: [], meta: { total_count: 0 } });
    expect((await product.api(a.key, 'GET', `/contacts/${contactId}`)).body?.data).toMatchObject({ email: 'private@example.test' });
  });

  it('answers 401 without a key and 403 for a plan without API access, before reaching a service', async () => {
    const free = await product.anAccountWithKey('free');
    expect((await fetch(`${product.gateway.url}/api/v1/contacts`)).status).toBe(401);
    expect((await product.api(free.key, 'GET', '/contacts')).status).toBe(403);
    expect((await product.api(free.key, 'GET', '/campaigns')).status).toBe(403);
  });

  it('refuses campaign writes with 405 and Allow through the gateway', async () => {
    const { key } = await product.anAccountWithKey();
    const refused = await product.api(key, 'POST', '/campaigns', { name: 'x' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toMatch(/GET/);
  });
});
