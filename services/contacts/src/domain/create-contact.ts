import { currentTraceparent, withTransaction, type EmailDomainValidator, type Logger, type Pool } from '@mailer/shared';
import { insertContact, type NewContactRow } from '../data-access/contacts.repository';
import {
  insertContactsWithTagsAndFacts,
  isTagCreatedMeanwhile,
  type InsertedContact,
  type ContactToInsert,
} from '../data-access/new-contacts.repository';
import { attachTags } from '../data-access/tags.repository';
import { emailTaken } from './contact.errors';
import { contactFacts } from './contact-facts';
import { snapshotOf, withTags, type Contact } from './contact';
import { distinctTags, type NewContactInput } from './contact-input';
import { checkContactLimits } from './contact-limits';
import { requestConfirmation, startPending } from './double-opt-in';
import { newContactBatchesOf } from './new-contact-batches';
import { applyConsent, LIFTED_BY_ACCOUNT_HOLDER, logSuppressionLifted } from './record-consent';

export interface ContactUseCaseDeps {
  pool: Pool;
  emailValidator: EmailDomainValidator;
  /** Where a lifted suppression is logged (docs/consent.md). */
  logger: Logger;
}

/**
 * The statement's answer for one create, shared with the creates handled meanwhile; a second create
 * of one address in a batch is written alone once the first has committed.
 */
async function insertedOrTaken(pool: Pool, input: ContactToInsert): Promise<InsertedContact | 'taken'> {
  const outcome = await newContactBatchesOf(pool).add(input);
  if ('error' in outcome) throw outcome.error;
  return outcome.answer ?? (await insertContactsWithTagsAndFacts(pool, [input]))[0]!;
}

/**
 * The common case, no confirmation to wait for, in one statement shared with the creates handled
 * meanwhile: contact, tags, the lift of a suppression on an explicit `subscribed: true`, and the
 * fact. Undefined, with nothing written, when a tag was created meanwhile by another request: the
 * transaction below then does it all.
 */
async function createInOneStatement(
  deps: ContactUseCaseDeps,
  accountId: number,
  row: NewContactRow,
  tags: string[],
  subscribedByHolder: boolean,
): Promise<Contact | undefined> {
  // The fact as it will be, but for what the statement fills in (id, tags as stored, suppression, time).
  const placeholder: Contact = {
    id: 1,
    account_id: accountId,
    ...row,
    bounced: false,
    confirmation: null,
    tags: [],
    created_at: new Date(0),
    updated_at: new Date(0),
  };
  const inserted = await insertedOrTaken(deps.pool, {
    accountId,
    row,
    tags,
    liftedBy: subscribedByHolder ? LIFTED_BY_ACCOUNT_HOLDER : null,
    fact: { account_id: accountId, contact: snapshotOf(placeholder, null), occurred_at: '' },
    // Taken here, in the request's context: the statement may be another request's.
    traceparent: currentTraceparent(),
  }).catch((error: unknown) => {
    if (isTagCreatedMeanwhile(error)) return undefined;
    throw error;
  });
  if (inserted === undefined) return undefined;
  if (inserted === 'taken') throw emailTaken();
  if (inserted.lifted) logSuppressionLifted(deps.logger, inserted.contact, inserted.lifted);
  return inserted.contact;
}

/**
 * Validates the address (DNS outside any transaction), then writes contact, tags and fact at once:
 * in one statement unless the contact starts pending or a tag races, else in one transaction.
 * An explicit `subscribed: true` lifts the address's suppression; otherwise a suppressed address
 * stays suppressed (the contact is created unsubscribed, the default).
 */
export async function createContact(
  deps: ContactUseCaseDeps,
  accountId: number,
  input: NewContactInput,
  /** Double opt-in (imports, the subscribe form; never the REST interface): a "yes" starts pending instead. */
  options: { doubleOptIn?: boolean } = {},
): Promise<Contact> {
  const pending = options.doubleOptIn === true && input.subscribed === true;
  const customProperties = input.custom_properties ?? {};
  const tags = distinctTags(input.tags ?? []);
  checkContactLimits({ customProperties, tagCount: tags.length });
  const email = await deps.emailValidator.validate(input.email);
  const row: NewContactRow = {
    email,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    subscribed: pending ? false : (input.subscribed ?? false),
    source: input.source ?? null,
    custom_properties: customProperties,
  };
  const created = pending
    ? undefined
    : await createInOneStatement(deps, accountId, row, tags, input.subscribed === true);
  return (
    created ??
    withTransaction(deps.pool, async (db) => {
      const inserted = await insertContact(db, accountId, row);
      // A new contact has no tags but the ones linked now, returned in the read order.
      const linked = await attachTags(db, accountId, inserted.id, tags);
      if (pending) {
        // The recipient's own confirmation, not the file, is the "yes": no suppression is lifted.
        const contact = withTags(await startPending(db, inserted), linked);
        await contactFacts.created(db, contact);
        await requestConfirmation(db, contact);
        return contact;
      }
      const contact = withTags(inserted, linked);
      if (input.subscribed === true) await applyConsent(deps.logger, db, contact, true);
      await contactFacts.created(db, contact);
      return contact;
    })
  );
}
