import { withTransaction, type Pool } from '@mailer/shared';
import { insertContact } from '../data-access/contacts.repository';
import { attachTags } from '../data-access/tags.repository';
import { invalidContact } from './contact.errors';
import { contactFacts } from './contact-facts';
import { MAX_CUSTOM_PROPERTIES, withTags, type Contact } from './contact';
import { distinctTags, type NewContactInput } from './contact-input';
import type { EmailDomainValidator } from './validate-email-domain';

export interface ContactUseCaseDeps {
  pool: Pool;
  emailValidator: EmailDomainValidator;
}

/** Validates the address (DNS outside any transaction), then writes contact, tags and fact at once. */
export async function createContact(
  deps: ContactUseCaseDeps,
  accountId: number,
  input: NewContactInput,
): Promise<Contact> {
  const customProperties = input.custom_properties ?? {};
  if (Object.keys(customProperties).length > MAX_CUSTOM_PROPERTIES) {
    throw invalidContact([`custom_properties has more than ${MAX_CUSTOM_PROPERTIES} entries`]);
  }
  await deps.emailValidator.validate(input.email);
  return withTransaction(deps.pool, async (db) => {
    const row = await insertContact(db, accountId, {
      email: input.email,
      first_name: input.first_name ?? null,
      last_name: input.last_name ?? null,
      subscribed: input.subscribed ?? false,
      source: input.source ?? null,
      custom_properties: customProperties,
    });
    // A new contact has no tags but the ones linked now, returned in the read order.
    const tags = input.tags ? await attachTags(db, accountId, row.id, distinctTags(input.tags)) : [];
    const contact = withTags(row, tags);
    await contactFacts.created(db, contact);
    return contact;
  });
}
