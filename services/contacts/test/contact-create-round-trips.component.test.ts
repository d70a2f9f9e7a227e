import { AppError, createLogger } from '@mailer/shared';
import { countingPool, waitFor } from '@mailer/testing';
import { suppressAddress } from '../src/data-access/suppressions.repository';
import { createContact, type ContactUseCaseDeps } from '../src/domain/create-contact';
import type { NewContactInput } from '../src/domain/contact-input';
import {
  newAccountId,
  startContactsForTest,
  uniqueEmail,
  type ContactsTestService,
} from './support/contacts-test-service';

let service: ContactsTestService;
beforeAll(async () => {
  service = await startContactsForTest();
});
afterAll(async () => {
  await service.stop();
});

/** Creates as POST /contacts does, DNS aside (not a database round trip); resolves to the contact and the statements sent. */
async function create(accountId: number, input: NewContactInput) {
  const counting = countingPool(service.pool);
  const deps: ContactUseCaseDeps = {
    pool: counting.pool,
    emailValidator: { validate: (email) => Promise.resolve(email) },
    logger: createLogger('contacts', { level: 'silent' }),
  };
  const outcome = await createContact(deps, accountId, input).catch((error: unknown) => error);
  return { outcome, statements: counting.statements() };
}

async function factsAbout(contactId: number) {
  const { rows } = await service.pool.query<{ message_type: string; payload: unknown }>(
    `SELECT message_type, payload FROM outbox WHERE (payload->'contact'->>'id')::bigint = $1 ORDER BY id`,
    [contactId],
  );
  return rows;
}

async function tagNames(accountId: number) {
  const { rows } = await service.pool.query<{ name: string }>(
    'SELECT name FROM tags WHERE account_id = $1 ORDER BY name',
    [accountId],
  );
  return rows.map((row) => row.name);
}

describe('creating a contact in round trips', () => {
  it('writes the contact and its fact in one statement, the fact as the transaction wrote it', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const { outcome: contact, statements } = await create(account, {
      email,
      first_name: 'Ann',
      source: 'api',
      custom_properties: { plan: 'pro', seats: 3 },
    });
    expect(statements).toBe(1);
    expect(contact).toMatchObject({
      email,
      first_name: 'Ann',
      last_name: null,
      subscribed: false,
      bounced: false,
      source: 'api',
      tags: [],
      custom_properties: { plan: 'pro', seats: 3 },
    });
    const { id, created_at: createdAt } = contact as { id: number; created_at: Date };
    expect(await factsAbout(id)).toEqual([
      {
        message_type: 'contact.created.v1',
        payload: {
          account_id: account,
          contact: {
            id,
            email,
            first_name: 'Ann',
            last_name: null,
            subscribed: false,
            bounced: false,
            tags: [],
            custom_properties: { plan: 'pro', seats: 3 },
            suppression: null,
            pending_confirmation: false,
          },
          occurred_at: createdAt.toISOString(),
        },
      },
    ]);
  });

  it('finds and creates tags, and lifts a suppression on subscribed:true, in the same one statement', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    await create(account, { email: uniqueEmail(), tags: ['Newsletter'] });
    await suppressAddress(service.pool, account, email, 'bounced', 'smtp_bounce');
    const { outcome: contact, statements } = await create(account, {
      email,
      subscribed: true,
      tags: ['zeta', 'NEWSLETTER', 'alpha'],
    });
    expect(statements).toBe(1);
    expect(contact).toMatchObject({ subscribed: true, tags: ['alpha', 'Newsletter', 'zeta'] });
    expect(await tagNames(account)).toEqual(['Newsletter', 'alpha', 'zeta']);
    const { rows: suppressions } = await service.pool.query<{ lifted_by: string | null }>(
      'SELECT lifted_by FROM suppressions WHERE account_id = $1',
      [account],
    );
    expect(suppressions).toEqual([{ lifted_by: 'account holder: subscribed true over the API' }]);
    const [fact] = await factsAbout((contact as { id: number }).id);
    expect(fact!.payload).toMatchObject({
      contact: { subscribed: true, tags: ['alpha', 'Newsletter', 'zeta'], suppression: null },
    });
  });

  it('without a lift, the fact names the standing suppression', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    await suppressAddress(service.pool, account, email, 'unsubscribed', 'api');
    const { outcome: contact, statements } = await create(account, { email });
    expect(statements).toBe(1);
    const [fact] = await factsAbout((contact as { id: number }).id);
    expect(fact!.payload).toMatchObject({ contact: { subscribed: false, suppression: 'unsubscribed' } });
  });

  it('refuses a taken address in one statement, writing no tag', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    await create(account, { email });
    const { outcome, statements } = await create(account, { email: email.toUpperCase(), tags: ['fresh'] });
    expect(statements).toBe(1);
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).code).toBe('CONTACT.EMAIL_TAKEN');
    expect(await tagNames(account)).toEqual([]);
  });

  it('when another transaction creates one of its tags meanwhile, writes nothing in the statement and links that tag in a transaction', async () => {
    const account = newAccountId();
    const other = await service.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query("INSERT INTO tags (account_id, name) VALUES ($1, 'Raced')", [account]);
      const creating = create(account, { email: uniqueEmail(), tags: ['raced', 'calm'] });
      // The statement waits on the other transaction's tag; committing it then is "meanwhile".
      await waitFor(
        async () => {
          const { rows } = await service.pool.query<{ waiting: number }>(
            "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          return rows[0]!.waiting > 0 ? true : undefined;
        },
        { what: 'the create waiting on the raced tag' },
      );
      await other.query('COMMIT');
      const { outcome: contact, statements } = await creating;
      // The statement that wrote nothing, then the transaction.
      expect(statements).toBeGreaterThan(1);
      expect(contact).toMatchObject({ tags: ['calm', 'Raced'] });
      expect(await tagNames(account)).toEqual(['Raced', 'calm']);
      expect(await factsAbout((contact as { id: number }).id)).toHaveLength(1);
    } finally {
      other.release();
    }
  });
});
