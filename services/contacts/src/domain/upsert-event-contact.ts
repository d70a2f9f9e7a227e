import {
  currentTraceparent,
  normaliseEmail,
  PoisonMessageError,
  withTransaction,
  type MessageOf,
  type Pool,
  type PoolClient,
} from '@mailer/shared';
import type { productEventEnrichedV1, productEventReceivedV1 } from '@mailer/shared';
import {
  findContactByEmail,
  insertContactIfAbsent,
  updateContact,
  type ContactChanges,
} from '../data-access/contacts.repository';
import { doubleOptInEnabled } from '../data-access/double-opt-in.repository';
import { countEventDay } from '../data-access/event-days.repository';
import { claimMessage } from '../data-access/processed-messages.repository';
import { standingSuppression } from '../data-access/suppressions.repository';
import { tagsOf } from '../data-access/tags.repository';
import { contactFacts } from './contact-facts';
import { eventContactBatchesOf } from './event-contact-batches';
import { requestConfirmation, startPending } from './double-opt-in';
import { snapshotOf, withTags, type Contact, type ContactRow, type SuppressionReason } from './contact';

export type ProductEvent = MessageOf<typeof productEventReceivedV1>;
export type EnrichedEvent = MessageOf<typeof productEventEnrichedV1>;

export interface EventContactDeps {
  pool: Pool;
  /**
   * Where the enriched event goes once the contact is committed (the consumer publishes it for
   * automation, `publishEnrichedEvent`); the product event is acked only when it resolves.
   */
  deliver: (event: EnrichedEvent) => Promise<void>;
}

const MAX_NAME_LENGTH = 255;

/** A usable name from the event's properties, or undefined. */
function nameFrom(properties: Record<string, unknown>, key: 'first_name' | 'last_name'): string | undefined {
  const value = properties[key];
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return name.length > 0 && name.length <= MAX_NAME_LENGTH ? name : undefined;
}

/** The names an event may fill in: trimmed, non-empty, not too long. */
const namesFrom = (event: ProductEvent) => ({
  first_name: nameFrom(event.properties, 'first_name') ?? null,
  last_name: nameFrom(event.properties, 'last_name') ?? null,
});

/**
 * The contact the event names, with missing names filled, or created if it does not exist
 * (subscribed unless its address is suppressed). An event never changes `subscribed` of an
 * existing contact: consent is the recipient's and the account holder's, not the product's.
 */
async function upsertContact(
  db: PoolClient,
  event: ProductEvent,
  doubleOptIn: boolean,
): Promise<{ row: ContactRow; changed: string[] | 'created' }> {
  const names = namesFrom(event);
  const existing = await findContactByEmail(db, event.account_id, event.email, { forUpdate: true });
  if (!existing) {
    const suppressed = await standingSuppression(db, event.account_id, event.email);
    const created = await insertContactIfAbsent(db, event.account_id, {
      email: event.email,
      ...names,
      subscribed: suppressed === null,
      source: 'event',
      custom_properties: {},
    });
    if (created) return { row: doubleOptIn && created.subscribed ? await startPending(db, created) : created, changed: 'created' };
    // Another transaction created it since we looked: fall through to the update path.
    return upsertContact(db, event, doubleOptIn);
  }
  const changes: ContactChanges = {};
  const changed: string[] = [];
  for (const field of ['first_name', 'last_name'] as const) {
    const name = names[field];
    if (name && !existing[field]) {
      changes[field] = name;
      changed.push(field);
    }
  }
  if (changed.length === 0) return { row: existing, changed };
  return { row: await updateContact(db, event.account_id, existing.id, changes), changed };
}

type EnrichedContact = { contact: Contact; suppression: SuppressionReason | null };

/**
 * A new contact or one the event leaves as it is (the common cases: a sign-up, an event from a
 * known user), with its inbox row, in one statement shared with the events handled meanwhile;
 * undefined when the general path must run.
 */
async function createdOrUnchangedContact(pool: Pool, messageKey: string, event: ProductEvent): Promise<EnrichedContact | undefined> {
  const row = { email: event.email, ...namesFrom(event) };
  const outcome = await eventContactBatchesOf(pool).add({
    messageKey,
    accountId: event.account_id,
    ...row,
    // The fact as it will be, but for the id and creation time the statement fills in.
    fact: {
      account_id: event.account_id,
      contact: { id: 1, ...row, subscribed: true, bounced: false, tags: [], custom_properties: {} },
      occurred_at: '',
    },
    // Taken here, in the message's context: the statement may be another message's.
    traceparent: currentTraceparent(),
    event: event.event,
    receivedAt: event.received_at,
  });
  if ('error' in outcome) throw outcome.error;
  if (!outcome.answer) return undefined;
  const { suppression, tags, ...contactRow } = outcome.answer;
  return { contact: withTags(contactRow, tags), suppression };
}

/** The contact with its address's standing suppression, for the enriched event. */
async function withSuppression(pool: Pool, contact: Contact | undefined): Promise<EnrichedContact | undefined> {
  return contact && { contact, suppression: await standingSuppression(pool, contact.account_id, contact.email) };
}

/** Upserts the event's contact, counts the event in its day and announces the change, once per event (the inbox row). */
async function applyEvent(pool: Pool, messageKey: string, event: ProductEvent, doubleOptIn: boolean): Promise<Contact | undefined> {
  return withTransaction(pool, async (db) => {
    if (!(await claimMessage(db, messageKey))) return undefined;
    const { row, changed } = await upsertContact(db, event, doubleOptIn);
    await countEventDay(db, event.account_id, row.id, event.event, event.received_at);
    // A contact created a moment ago has no tags yet.
    const tags = changed === 'created' ? [] : (await tagsOf(db, [row.id])).get(row.id);
    const contact = withTags(row, tags);
    if (changed === 'created') {
      await contactFacts.created(db, contact);
      if (contact.confirmation === 'pending') await requestConfirmation(db, contact);
    } else if (changed.length > 0) await contactFacts.updated(db, contact, changed);
    return contact;
  });
}

/** The contact as it stands now, for re-publishing an event applied before. */
async function currentContact(pool: Pool, event: ProductEvent): Promise<Contact | undefined> {
  const row = await findContactByEmail(pool, event.account_id, event.email);
  return row && withTags(row, (await tagsOf(pool, [row.id])).get(row.id));
}

/**
 * Every other case (a name to fill in, a new contact under double opt-in, a race, a redelivery whose
 * contact is gone): the transaction that can do all of it, or the contact as it stands when the
 * message was applied before.
 */
async function throughGeneralPath(pool: Pool, messageKey: string, event: ProductEvent): Promise<EnrichedContact | undefined> {
  // With double opt-in a new contact starts pending, which the transaction marks.
  const doubleOptIn = await doubleOptInEnabled(pool, event.account_id);
  return withSuppression(pool, (await applyEvent(pool, messageKey, event, doubleOptIn)) ?? (await currentContact(pool, event)));
}

/**
 * A product event: upsert its contact in one transaction with the inbox row (one statement, shared
 * with the events handled meanwhile, when the contact is new, the common case of a sign-up, or when
 * the event changes nothing; the double opt-in setting is read in that statement too), then deliver
 * the event enriched with the contact's snapshot and only then let the consumer ack.
 *
 * No crash loses the enriched event: the product event is acked only after the enriched one is
 * confirmed, so a process that dies after the commit and before the confirm has the message
 * redelivered, and a redelivery whose inbox row exists still reads the contact as it stands and
 * delivers the enriched event again. Its id derives from the event's, so automation's inbox drops
 * a copy that did get through. Delivering after commit rather than through the outbox saves an
 * outbox write and a relay pass per event with that same guarantee. The domain is not checked by
 * DNS here: the events ingress gave the address the same verdict as contacts' before accepting
 * it. An address failing the address rule is poison.
 */
export async function upsertEventContact(deps: EventContactDeps, messageKey: string, received: ProductEvent): Promise<void> {
  const normalised = normaliseEmail(received.email);
  if (!normalised) throw new PoisonMessageError('product event names a malformed email address');
  const event = { ...received, email: normalised.address };
  const enriched = (await createdOrUnchangedContact(deps.pool, messageKey, event)) ?? (await throughGeneralPath(deps.pool, messageKey, event));
  // Deleted since the first attempt: nothing is left to enrich, and no email must follow.
  if (!enriched) return;
  await deps.deliver({ ...event, contact: snapshotOf(enriched.contact, enriched.suppression) });
}
