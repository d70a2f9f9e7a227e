import type { ContactSnapshot, SuppressionReason } from '@mailer/shared';

export type { SuppressionReason };

export type CustomPropertyValue = string | number | boolean;
export type CustomProperties = Record<string, CustomPropertyValue>;

/** A contacts row as stored. */
export interface ContactRow {
  id: number;
  account_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  subscribed: boolean;
  bounced: boolean;
  source: string | null;
  custom_properties: CustomProperties;
  /** Double opt-in: 'pending' until the recipient confirms (not subscribed meanwhile); absent on rows read without it. */
  confirmation?: 'pending' | 'confirmed' | null;
  created_at: Date;
  updated_at: Date;
}

/** A contact with its tag names (sorted by name). */
export interface Contact extends ContactRow {
  tags: string[];
}

export const withTags = (row: ContactRow, tags: string[] | undefined): Contact => ({
  ...row,
  tags: tags ?? [],
});

/** The contact as other services see it in messages, with its address's standing suppression. */
export const snapshotOf = (contact: Contact, suppression: SuppressionReason | null): ContactSnapshot => ({
  id: contact.id,
  email: contact.email,
  first_name: contact.first_name,
  last_name: contact.last_name,
  subscribed: contact.subscribed,
  bounced: contact.bounced,
  tags: contact.tags,
  custom_properties: contact.custom_properties,
  suppression,
  // Subscribed by the account holder (REST) since: nothing is awaited any more.
  pending_confirmation: contact.confirmation === 'pending' && !contact.subscribed,
});
