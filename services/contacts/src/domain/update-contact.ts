import { notFound, withTransaction } from '@mailer/shared';
import { findContact, updateContact, type ContactChanges } from '../data-access/contacts.repository';
import { attachTags, tagsOf } from '../data-access/tags.repository';
import { contactFacts } from './contact-facts';
import { withTags, type Contact, type ContactRow } from './contact';
import { checkContactLimits } from './contact-limits';
import {
  distinctTags,
  mergeCustomProperties,
  sameProperties,
  type ContactChangesInput,
} from './contact-input';
import type { ContactUseCaseDeps } from './create-contact';
import { applyConsent } from './record-consent';

const SIMPLE_FIELDS = ['email', 'first_name', 'last_name', 'subscribed', 'source'] as const;

function changesOf(
  row: ContactRow,
  input: ContactChangesInput,
): { changes: ContactChanges; changed: string[] } {
  const changes: ContactChanges = {};
  const changed: string[] = [];
  for (const field of SIMPLE_FIELDS) {
    const value = input[field];
    if (value === undefined || value === row[field]) continue;
    Object.assign(changes, { [field]: value });
    changed.push(field);
  }
  if (input.custom_properties) {
    const merged = mergeCustomProperties(row.custom_properties, input.custom_properties);
    checkContactLimits({ customProperties: merged });
    if (!sameProperties(merged, row.custom_properties)) {
      changes.custom_properties = merged;
      changed.push('custom_properties');
    }
  }
  return { changes, changed };
}

/**
 * Changes only the given fields; tags are added, never removed. A new address passes the same
 * domain validation as on create. An explicit `subscribed` is consent (record-consent.ts): false
 * suppresses the address, true lifts its suppression. Nothing changed: no write, no fact.
 */
export async function updateContactFields(
  deps: ContactUseCaseDeps,
  accountId: number,
  id: number,
  input: ContactChangesInput,
): Promise<Contact> {
  const before = await findContact(deps.pool, accountId, id);
  if (!before) throw notFound('contact');
  const email =
    input.email !== undefined && input.email !== before.email
      ? await deps.emailValidator.validate(input.email)
      : input.email;
  return withTransaction(deps.pool, async (db) => {
    const row = await findContact(db, accountId, id, { forUpdate: true });
    if (!row) throw notFound('contact');
    const { changes, changed } = changesOf(row, { ...input, email });
    const added = input.tags ? await attachTags(db, accountId, id, distinctTags(input.tags)) : [];
    if (added.length > 0) changed.push('tags');
    const updated = changed.length > 0 ? await updateContact(db, accountId, id, changes) : row;
    const contact = withTags(updated, (await tagsOf(db, [id])).get(id));
    // Counted after linking, in the transaction: a refusal rolls the links back.
    checkContactLimits({ tagCount: contact.tags.length });
    if (input.subscribed !== undefined && (await applyConsent(deps.logger, db, contact, input.subscribed))) {
      changed.push('suppression');
    }
    if (changed.length > 0) await contactFacts.updated(db, contact, changed);
    return contact;
  });
}
