import { randomUUID } from 'node:crypto';
import { createLogger, createPool } from '@mailer/shared';
import { countingPool, freePort } from '@mailer/testing';
import {
  createOrReadUnchangedContactsForEvents,
  type EventContact,
  type EventContactInput,
} from '../src/data-access/event-contact.repository';
import { suppressAddress } from '../src/data-access/suppressions.repository';
import { eventContactBatchesOf } from '../src/domain/event-contact-batches';
import type { BatchOutcome } from '../src/domain/statement-batches';
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

/** An event as the product-event consumer hands it to the batches. */
function eventFor(
  accountId: number,
  email: string,
  names: { first_name?: string; last_name?: string } = {},
): EventContactInput {
  const row = { email, first_name: names.first_name ?? null, last_name: names.last_name ?? null };
  return {
    messageKey: `test:${randomUUID()}`,
    accountId,
    ...row,
    fact: {
      account_id: accountId,
      contact: { id: 1, ...row, subscribed: true, bounced: false, tags: [], custom_properties: {} },
      occurred_at: '',
    },
    traceparent: null,
    event: 'signup',
    receivedAt: new Date().toISOString(),
  };
}

/** Adds the first event alone, then the others while its statement is in flight, as a prefetch of messages does. */
async function handledTogether(events: EventContactInput[], pool = service.pool) {
  const counting = countingPool(pool);
  const batches = eventContactBatchesOf(counting.pool);
  const outcomes = await Promise.all(events.map((event) => batches.add(event)));
  return { outcomes, statements: counting.statements() };
}

const contactOf = (outcome: BatchOutcome<EventContact> | undefined) => (outcome && 'answer' in outcome ? outcome.answer : undefined);

async function rowsFor(accountId: number) {
  const { rows } = await service.pool.query<{ email: string; subscribed: boolean; source: string }>(
    'SELECT email, subscribed, source FROM contacts WHERE account_id = $1 ORDER BY id',
    [accountId],
  );
  return rows;
}

async function createdFactsFor(accountId: number) {
  const { rows } = await service.pool.query<{ email: string; suppression: string | null }>(
    `SELECT payload->'contact'->>'email' AS email, payload->'contact'->>'suppression' AS suppression
       FROM outbox WHERE message_type = 'contact.created.v1' AND (payload->>'account_id')::bigint = $1 ORDER BY id`,
    [accountId],
  );
  return rows;
}

async function inboxRows(keys: string[]) {
  const { rows } = await service.pool.query<{ message_id: string }>(
    'SELECT message_id FROM processed_messages WHERE message_id = ANY($1)',
    [keys],
  );
  return new Set(rows.map((row) => row.message_id));
}

describe('product events handled together', () => {
  it('share one statement, each answered as if it had been written alone', async () => {
    const account = newAccountId();
    const known = (await service.api.create(account, { email: uniqueEmail(), first_name: 'Ann', tags: ['beta'] })).body.data;
    const named = (await service.api.create(account, { email: uniqueEmail(), first_name: 'Bo' })).body.data;
    const suppressed = uniqueEmail();
    await suppressAddress(service.pool, account, suppressed, 'bounced', 'smtp_bounce');
    const fresh = [uniqueEmail(), uniqueEmail(), uniqueEmail()];
    const twice = uniqueEmail();
    const events = [
      eventFor(account, fresh[0]!),
      eventFor(account, fresh[1]!, { first_name: 'Cy' }),
      eventFor(account, known.email.toUpperCase()),
      eventFor(account, suppressed),
      eventFor(account, twice),
      eventFor(account, twice),
      // Fills in a last name: the general path's.
      eventFor(account, named.email, { last_name: 'Filled' }),
      eventFor(account, fresh[2]!),
    ];

    const { outcomes, statements } = await handledTogether(events);

    // Handled in one turn of the event loop: all eight in one statement.
    expect(statements).toBe(1);
    expect(outcomes.map(contactOf).map((contact) => contact?.email)).toEqual([
      fresh[0],
      fresh[1],
      known.email,
      suppressed,
      twice,
      // The second event for an address the statement created goes the general path, after it.
      undefined,
      undefined,
      fresh[2],
    ]);
    expect(contactOf(outcomes[1])).toMatchObject({ first_name: 'Cy', source: 'event', subscribed: true, tags: [] });
    expect(contactOf(outcomes[2])).toMatchObject({ id: known.id, first_name: 'Ann', tags: ['beta'], suppression: null });
    expect(contactOf(outcomes[3])).toMatchObject({ subscribed: false, suppression: 'bounced' });

    expect((await rowsFor(account)).map((row) => row.email).sort()).toEqual(
      [known.email, named.email, ...fresh, suppressed, twice].sort(),
    );
    expect(await createdFactsFor(account)).toEqual(
      expect.arrayContaining([
        { email: fresh[0], suppression: null },
        { email: suppressed, suppression: 'bounced' },
        { email: twice, suppression: null },
      ]),
    );
    // Created by the API (2) and by these events (5), each announced once.
    expect(await createdFactsFor(account)).toHaveLength(7);
    const answered = events.filter((_, index) => contactOf(outcomes[index]) !== undefined).map((event) => event.messageKey);
    const unanswered = events.filter((_, index) => contactOf(outcomes[index]) === undefined).map((event) => event.messageKey);
    expect(await inboxRows(answered)).toEqual(new Set(answered));
    expect(await inboxRows(unanswered)).toEqual(new Set());
  });

  it('redelivered together, change nothing and read the contacts as they stand', async () => {
    const account = newAccountId();
    const events = [eventFor(account, uniqueEmail()), eventFor(account, uniqueEmail()), eventFor(account, uniqueEmail())];
    const first = await handledTogether(events);
    const again = await handledTogether(events);
    expect(again.outcomes.map(contactOf).map((contact) => contact?.id)).toEqual(first.outcomes.map(contactOf).map((contact) => contact?.id));
    expect(await rowsFor(account)).toHaveLength(3);
    expect(await createdFactsFor(account)).toHaveLength(3);
  });

  it('in one statement, one address named twice is created and announced once, for its first event', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    // The batches keep such pairs apart; the statement must hold on its own too.
    const answers = await createOrReadUnchangedContactsForEvents(service.pool, [
      eventFor(account, email),
      eventFor(account, email.toUpperCase()),
    ]);
    expect(answers.map((contact) => contact?.email)).toEqual([email, undefined]);
    expect(await rowsFor(account)).toHaveLength(1);
    expect(await createdFactsFor(account)).toHaveLength(1);
  });

  it('fail one at a time: an event the database refuses is retried alone, the others are written', async () => {
    const account = newAccountId();
    const good = [uniqueEmail(), uniqueEmail(), uniqueEmail()];
    // Postgres refuses a NUL byte in text: the whole statement fails.
    const refused = eventFor(account, uniqueEmail(), { first_name: 'Nul\u0000Byte' });
    const { outcomes } = await handledTogether([
      eventFor(account, good[0]!),
      eventFor(account, good[1]!),
      refused,
      eventFor(account, good[2]!),
    ]);
    expect(outcomes.map((outcome) => ('error' in outcome ? 'error' : outcome.answer?.email))).toEqual([
      good[0],
      good[1],
      'error',
      good[2],
    ]);
    expect((await rowsFor(account)).map((row) => row.email).sort()).toEqual([...good].sort());
    expect(await inboxRows([refused.messageKey])).toEqual(new Set());
  });

  it('with Postgres unreachable, fail together at once rather than one by one', async () => {
    const account = newAccountId();
    // Nothing listens on this port: every connection is refused, as when Postgres is down.
    const unreachable = createPool(`postgres://postgres@127.0.0.1:${await freePort()}/none`, createLogger('test', { level: 'silent' }));
    try {
      const { outcomes, statements } = await handledTogether(
        [eventFor(account, uniqueEmail()), eventFor(account, uniqueEmail()), eventFor(account, uniqueEmail()), eventFor(account, uniqueEmail())],
        unreachable,
      );
      expect(outcomes.every((outcome) => 'error' in outcome)).toBe(true);
      // All four in one statement (handled in one turn), none of them again alone.
      expect(statements).toBe(1);
    } finally {
      await unreachable.end();
    }
  });
});
