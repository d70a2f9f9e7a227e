import { AppError, createLogger } from '@mailer/shared';
import { countingPool } from '@mailer/testing';
import type { NewContactRow } from '../src/data-access/contacts.repository';
import { insertContactsWithTagsAndFacts, type ContactToInsert } from '../src/data-access/new-contacts.repository';
import { suppressAddress } from '../src/data-access/suppressions.repository';
import type { Contact } from '../src/domain/contact';
import { createContact, type ContactUseCaseDeps } from '../src/domain/create-contact';
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

const rowFor = (email: string, subscribed = true): NewContactRow => ({
  email,
  first_name: null,
  last_name: null,
  subscribed,
  source: 'api',
  custom_properties: {},
});

/** One create as `createContact` hands it to the statement. */
function inputFor(accountId: number, email: string, tags: string[], liftedBy: string | null = null): ContactToInsert {
  const row = rowFor(email);
  return {
    accountId,
    row,
    tags,
    liftedBy,
    fact: {
      account_id: accountId,
      contact: { id: 1, ...row, bounced: false, tags: [], custom_properties: {}, suppression: null },
      occurred_at: '',
    },
    traceparent: null,
  };
}

async function factsFor(accountId: number) {
  const { rows } = await service.pool.query<{ email: string; tags: string[]; suppression: string | null }>(
    `SELECT payload->'contact'->>'email' AS email, ARRAY(SELECT jsonb_array_elements_text(payload->'contact'->'tags')) AS tags,
            payload->'contact'->>'suppression' AS suppression
       FROM outbox WHERE message_type = 'contact.created.v1' AND (payload->>'account_id')::bigint = $1 ORDER BY id`,
    [accountId],
  );
  return rows;
}

async function tagRows(accountId: number) {
  const { rows } = await service.pool.query<{ name: string; links: number }>(
    `SELECT name, (SELECT count(*)::int FROM contact_tags WHERE tag_id = tags.id) AS links
       FROM tags WHERE account_id = $1 ORDER BY lower(name)`,
    [accountId],
  );
  return rows;
}

async function liftedAt(accountId: number, email: string) {
  const { rows } = await service.pool.query<{ lifted_at: Date | null }>(
    'SELECT lifted_at FROM suppressions WHERE account_id = $1 AND address = lower($2)',
    [accountId, email],
  );
  return rows[0]?.lifted_at ?? null;
}

describe('contacts created together', () => {
  it('are written in one statement, each as the one-contact statement writes it', async () => {
    const account = newAccountId();
    await service.api.create(account, { email: uniqueEmail(), tags: ['Existing'] });
    const taken = uniqueEmail();
    await service.api.create(account, { email: taken });
    const lifted = uniqueEmail();
    const standing = uniqueEmail();
    await suppressAddress(service.pool, account, lifted, 'unsubscribed', 'link');
    await suppressAddress(service.pool, account, standing, 'bounced', 'smtp_bounce');
    const plain = uniqueEmail();

    const answers = await insertContactsWithTagsAndFacts(service.pool, [
      inputFor(account, plain, ['Beta', 'existing']),
      inputFor(account, taken.toUpperCase(), ['never']),
      inputFor(account, lifted, ['beta'], 'account_holder'),
      inputFor(account, standing, []),
    ]);

    expect(answers[1]).toBe('taken');
    const [first, , third, fourth] = answers as Array<{ contact: Contact; lifted: string | null }>;
    expect(first).toMatchObject({ contact: { email: plain, tags: ['Beta', 'Existing'] }, lifted: null });
    expect(third).toMatchObject({ contact: { email: lifted, tags: ['Beta'] }, lifted: 'unsubscribed' });
    expect(fourth).toMatchObject({ contact: { email: standing, tags: [] }, lifted: null });
    // One new tag for the two spellings (the first's kept), the existing one reused, none for the taken address.
    expect(await tagRows(account)).toEqual([
      { name: 'Beta', links: 2 },
      { name: 'Existing', links: 2 },
    ]);
    expect(await liftedAt(account, lifted)).toBeInstanceOf(Date);
    expect(await liftedAt(account, standing)).toBeNull();
    const facts = await factsFor(account);
    expect(facts.slice(2)).toEqual([
      { email: plain, tags: ['Beta', 'Existing'], suppression: null },
      { email: lifted, tags: ['Beta'], suppression: null },
      { email: standing, tags: [], suppression: 'bounced' },
    ]);
  });

  it('through createContact share statements, and one address created twice at once is taken for the second', async () => {
    const account = newAccountId();
    const counting = countingPool(service.pool);
    const deps: ContactUseCaseDeps = {
      pool: counting.pool,
      emailValidator: { validate: (email) => Promise.resolve(email) },
      logger: createLogger('contacts', { level: 'silent' }),
    };
    const twice = uniqueEmail();
    const emails = [uniqueEmail(), twice, uniqueEmail(), twice.toUpperCase(), uniqueEmail(), uniqueEmail()];
    const outcomes = await Promise.all(
      emails.map((email) => createContact(deps, account, { email, subscribed: true, tags: ['launch'] }).catch((error: unknown) => error)),
    );
    expect(outcomes.map((outcome) => (outcome instanceof AppError ? outcome.code : (outcome as Contact).email))).toEqual([
      emails[0],
      twice,
      emails[2],
      'CONTACT.EMAIL_TAKEN',
      emails[4],
      emails[5],
    ]);
    // Asked in one turn: five in one statement, the second create of `twice` alone after it.
    expect(counting.statements()).toBe(2);
    expect(await tagRows(account)).toEqual([{ name: 'launch', links: 5 }]);
    expect(await factsFor(account)).toHaveLength(5);
  });
});
