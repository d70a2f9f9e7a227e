import type { ContactSnapshot } from '@mailer/shared';

export type CustomPropertyValue = string | number | boolean;
export type CustomProperties = Record<string, CustomPropertyValue>;

/** At most this many custom properties per contact (spec limit). */
export const MAX_CUSTOM_PROPERTIES = 50;

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

/** The contact as other services see it in messages. */
export const snapshotOf = (contact: Contact): ContactSnapshot => ({
  id: contact.id,
  email: contact.email,
  first_name: contact.first_name,
  last_name: contact.last_name,
  subscribed: contact.subscribed,
  bounced: contact.bounced,
  tags: contact.tags,
  custom_properties: contact.custom_properties,
});
