import {
  newAccountId,
  startContactsForTest,
  TEST_DNS_TIMEOUT_MS,
  uniqueEmail,
  type ContactsTestService,
} from './support/contacts-test-service';

let service: ContactsTestService;
beforeAll(async () => {
  service = await startContactsForTest({ DISPOSABLE_ALLOWLIST: 'allowed-disposable.test, 33mail.com' });
});
afterAll(() => service.stop());

const domainOf = (email: string) => email.slice(email.indexOf('@') + 1);
const queriesFor = (domain: string) =>
  service.dns.queries.filter((query) => query.name.toLowerCase() === domain);

describe('email domain validation on POST /api/v1/contacts', () => {
  it('accepts a domain with an MX record', async () => {
    expect((await service.api.create(newAccountId(), { email: uniqueEmail('mx.test') })).status).toBe(201);
  });

  it('accepts a domain with only an A record (implicit MX)', async () => {
    expect((await service.api.create(newAccountId(), { email: uniqueEmail('a-only.test') })).status).toBe(
      201,
    );
  });

  it('accepts a domain with only an AAAA record', async () => {
    expect((await service.api.create(newAccountId(), { email: uniqueEmail('aaaa-only.test') })).status).toBe(
      201,
    );
  });

  it('when the domain does not exist (NXDOMAIN), answers 422 with domain_error no_mx', async () => {
    const response = await service.api.create(newAccountId(), { email: uniqueEmail('missing.test') });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      errors: [expect.stringContaining('no MX or A record')],
      domain_error: 'no_mx',
    });
  });

  it('when the domain has no MX, A or AAAA record, answers 422 with domain_error no_mx', async () => {
    const response = await service.api.create(newAccountId(), { email: uniqueEmail('empty.test') });
    expect(response.status).toBe(422);
    expect(response.body.domain_error).toBe('no_mx');
  });

  it('when DNS never answers, answers 422 dns_timeout within DNS_TIMEOUT_MS + 1 s', async () => {
    const started = Date.now();
    const response = await service.api.create(newAccountId(), { email: uniqueEmail('slow.test') });
    expect(Date.now() - started).toBeLessThan(TEST_DNS_TIMEOUT_MS + 1000);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      errors: [expect.stringContaining('timed out')],
      domain_error: 'dns_timeout',
    });
  });

  it('when the DNS server answers SERVFAIL, answers 422 dns_timeout', async () => {
    const response = await service.api.create(newAccountId(), { email: uniqueEmail('broken.test') });
    expect(response.status).toBe(422);
    expect(response.body.domain_error).toBe('dns_timeout');
  });

  it('refuses a disposable provider with domain_error disposable without any DNS query', async () => {
    const before = service.dns.queries.length;
    const response = await service.api.create(newAccountId(), { email: 'someone@mailinator.com' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      errors: [expect.stringContaining('disposable')],
      domain_error: 'disposable',
    });
    expect(service.dns.queries.length).toBe(before);
  });

  it('refuses a subdomain of a wildcard-listed disposable provider', async () => {
    const response = await service.api.create(newAccountId(), { email: 'someone@anything.33mail.com' });
    // 33mail.com is on the allow-list in this test: the wildcard list is overridden by the operator.
    expect(response.body.domain_error).not.toBe('disposable');
    const wildcard = await service.api.create(newAccountId(), { email: 'someone@box.anonaddy.me' });
    expect(wildcard.status).toBe(422);
    expect(wildcard.body.domain_error).toBe('disposable');
  });

  it('refuses a malformed address with 422 { errors } and no DNS query', async () => {
    const before = service.dns.queries.length;
    const response = await service.api.create(newAccountId(), { email: 'user@@mx.test' });
    expect(response.body).toEqual({ errors: ['email is invalid'] });
    expect(service.dns.queries.length).toBe(before);
  });

  it('caches a verdict: a second address at the same domain asks DNS nothing', async () => {
    const first = uniqueEmail('mx.test');
    const domain = domainOf(first);
    expect((await service.api.create(newAccountId(), { email: first })).status).toBe(201);
    const asked = queriesFor(domain).length;
    expect(asked).toBeGreaterThan(0);
    expect((await service.api.create(newAccountId(), { email: `other@${domain}` })).status).toBe(201);
    expect(queriesFor(domain).length).toBe(asked);
  });

  it('caches no_mx too, but never caches a timeout', async () => {
    const missing = uniqueEmail('missing.test');
    await service.api.create(newAccountId(), { email: missing });
    const missingAsked = queriesFor(domainOf(missing)).length;
    expect(
      (await service.api.create(newAccountId(), { email: `again@${domainOf(missing)}` })).body.domain_error,
    ).toBe('no_mx');
    expect(queriesFor(domainOf(missing)).length).toBe(missingAsked);

    const slow = uniqueEmail('slow.test');
    await service.api.create(newAccountId(), { email: slow });
    const slowAsked = queriesFor(domainOf(slow)).length;
    const retry = await service.api.create(newAccountId(), { email: `again@${domainOf(slow)}` });
    expect(retry.body.domain_error).toBe('dns_timeout');
    expect(queriesFor(domainOf(slow)).length).toBeGreaterThan(slowAsked);
  });

  it('lets the operator allow-list a listed domain (it is then checked by DNS like any other)', async () => {
    const response = await service.api.create(newAccountId(), {
      email: 'person@sub.allowed-disposable.test',
    });
    // Not on the disposable list at all, and NXDOMAIN in the fixtures: only DNS decides.
    expect(response.body.domain_error).toBe('no_mx');
  });
});

describe('email domain validation on PATCH /api/v1/contacts/:id', () => {
  it('re-validates a changed address with the same 422 shape, and leaves the contact unchanged', async () => {
    const account = newAccountId();
    const created = (await service.api.create(account, { email: uniqueEmail() })).body.data;
    const disposable = await service.api.update(account, created.id, { email: 'x@mailinator.com' });
    expect(disposable.status).toBe(422);
    expect(disposable.body.domain_error).toBe('disposable');
    const noMx = await service.api.update(account, created.id, {
      contact: { email: uniqueEmail('empty.test') },
    });
    expect(noMx.body.domain_error).toBe('no_mx');
    const timeout = await service.api.update(account, created.id, { email: uniqueEmail('slow.test') });
    expect(timeout.body.domain_error).toBe('dns_timeout');
    const malformed = await service.api.update(account, created.id, { email: 'nope' });
    expect(malformed.body).toEqual({ errors: ['email is invalid'] });
    expect((await service.api.get(account, created.id)).body.data.email).toBe(created.email);
  });

  it('accepts a valid new address and refuses one another contact of the account holds', async () => {
    const account = newAccountId();
    const first = (await service.api.create(account, { email: uniqueEmail() })).body.data;
    const second = (await service.api.create(account, { email: uniqueEmail() })).body.data;
    const moved = uniqueEmail('a-only.test');
    expect((await service.api.update(account, first.id, { email: moved })).body.data.email).toBe(moved);
    const taken = await service.api.update(account, second.id, { email: moved.toUpperCase() });
    expect(taken.status).toBe(422);
    expect(taken.body).toEqual({ errors: ['email has already been taken'] });
  });
});

describe('email domain validation without Redis', () => {
  it('still validates (asking DNS every time) when the verdict cache is unreachable', async () => {
    const cacheless = await startContactsForTest({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const email = uniqueEmail('mx.test');
      expect((await cacheless.api.create(newAccountId(), { email })).status).toBe(201);
      const asked = cacheless.dns.queries.length;
      expect(
        (await cacheless.api.create(newAccountId(), { email: `again@${email.split('@')[1]!}` })).status,
      ).toBe(201);
      expect(cacheless.dns.queries.length).toBeGreaterThan(asked);
      expect(
        (await cacheless.api.create(newAccountId(), { email: uniqueEmail('empty.test') })).body.domain_error,
      ).toBe('no_mx');
    } finally {
      await cacheless.stop();
    }
  });
});
