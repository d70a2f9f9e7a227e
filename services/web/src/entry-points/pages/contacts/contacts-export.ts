import { once } from 'node:events';
import type { Response } from 'express';
import { stringify } from 'csv-stringify';
import type { Caller } from '@mailer/shared';
import type { Contact, ContactFilter, ContactsClient } from '../../../data-access/contacts.client';

/** The import's columns, so an exported file can be imported again as it is. */
const FIXED_COLUMNS = ['email', 'first_name', 'last_name', 'subscribed', 'tags'] as const;

function record(contact: Contact, propertyKeys: string[]): string[] {
  return [
    contact.email,
    contact.first_name ?? '',
    contact.last_name ?? '',
    String(contact.subscribed),
    contact.tags.join(';'),
    ...propertyKeys.map((key) => (key in contact.custom_properties ? String(contact.custom_properties[key]) : '')),
  ];
}

export const neutraliseFormula = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * The current filter as CSV, streamed: slices of 1000 contacts are read one after another (keyset,
 * newest first) and written as they come, with backpressure, so an export of 100k contacts holds
 * one slice in memory. The header is the import's columns plus one per custom property name.
 * A cell starting with = + - @ is prefixed with ' so a spreadsheet shows it as text, not a formula.
 */
export async function streamContactsCsv(contacts: ContactsClient, caller: Caller, filter: ContactFilter, res: Response): Promise<void> {
  const first = await contacts.exportSlice(caller, filter, undefined);
  const propertyKeys = (first.property_keys ?? []).filter((key) => !(FIXED_COLUMNS as readonly string[]).includes(key));
  const day = new Date().toISOString().slice(0, 10);
  res.status(200).type('text/csv; charset=utf-8').set('Content-Disposition', `attachment; filename="contacts-${day}.csv"`);
  const csv = stringify({ header: true, columns: [...FIXED_COLUMNS, ...propertyKeys], cast: { string: neutraliseFormula } });
  csv.pipe(res);
  let slice = first;
  for (;;) {
    for (const contact of slice.data) if (!csv.write(record(contact, propertyKeys))) await once(csv, 'drain');
    if (slice.next_before === null || res.destroyed) break;
    slice = await contacts.exportSlice(caller, filter, slice.next_before);
  }
  csv.end();
}
