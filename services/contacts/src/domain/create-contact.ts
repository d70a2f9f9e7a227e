import { withTransaction, type EmailDomainValidator, type Logger, type Pool } from '@mailer/shared';
import { insertContact } from '../data-access/contacts.repository';
import { attachTags } from '../data-access/tags.repository';
import { contactFacts } from './contact-facts';
import { withTags, type Contact } from './contact';
import { distinctTags, type NewContactInput } from './contact-input';
import { checkContactLimits } from './contact-limits';
import { requestConfirmation, startPending } from './double-opt-in';
import { applyConsent } from './record-consent';

export interface ContactUseCaseDeps {
  pool: Pool;
  emailValidator: EmailDomainValidator;
  /** Where a lifted suppression is logged (docs/consent.md). */
  logger: Logger;
}

/**
 * Validates the address (DNS outside any transaction), then writes contact, tags and fact at once.
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
  checkContactLimits({ customProperties, tagCount: distinctTags(input.tags ?? []).length });
  const email = await deps.emailValidator.validate(input.email);
  return withTransaction(deps.pool, async (db) => {
    const row = await insertContact(db, accountId, {
      email,
      first_name: input.first_name ?? null,
      last_name: input.last_name ?? null,
      subscribed: pending ? false : (input.subscribed ?? false),
      source: input.source ?? null,
      custom_properties: customProperties,
    });
    // A new contact has no tags but the ones linked now, returned in the read order.
    const tags = input.tags ? await attachTags(db, accountId, row.id, distinctTags(input.tags)) : [];
    if (pending) {
      // The recipient's own confirmation, not the file, is the "yes": no suppression is lifted.
      const contact = withTags(await startPending(db, row), tags);
      await contactFacts.created(db, contact);
      await requestConfirmation(db, contact);
      return contact;
    }
    const contact = withTags(row, tags);
    if (input.subscribed === true) await applyConsent(deps.logger, db, contact, true);
    await contactFacts.created(db, contact);
    return contact;
  });
}
