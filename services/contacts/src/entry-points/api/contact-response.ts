import { z } from 'zod';
import { pageOf } from '@mailer/shared';
import type { Contact } from '../../domain/contact';
import type { ContactPage } from '../../domain/read-contacts';

const timestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp.');

/** The spec's Contact resource: the mappers below are typed against it, the OpenAPI document is built from it. */
export const contactSchema = z.object({
  id: z.number().int().describe('Assigned by the service.'),
  email: z.string().describe("The contact's email address."),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  subscribed: z.boolean(),
  bounced: z.boolean().describe('Read and filtered via the API; not a create field.'),
  source: z.string().nullable().describe('Where the contact came from (free text, e.g. api).'),
  tags: z.array(z.string()).describe('Names of all tags the contact belongs to, sorted.'),
  custom_properties: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .describe('Arbitrary key-value pairs, at most 50 entries.'),
  created_at: timestamp,
  updated_at: timestamp,
});

export const contactPageSchema = pageOf(contactSchema);

export type ContactJson = z.output<typeof contactSchema>;

export const contactResource = (contact: Contact): ContactJson => ({
  id: contact.id,
  email: contact.email,
  first_name: contact.first_name,
  last_name: contact.last_name,
  subscribed: contact.subscribed,
  bounced: contact.bounced,
  source: contact.source,
  tags: contact.tags,
  custom_properties: contact.custom_properties,
  created_at: contact.created_at.toISOString(),
  updated_at: contact.updated_at.toISOString(),
});

export const contactPageResource = (page: ContactPage): z.output<typeof contactPageSchema> => ({
  data: page.contacts.map(contactResource),
  meta: {
    current_page: page.page,
    total_pages: page.totalPages,
    total_count: page.totalCount,
    per_page: page.perPage,
  },
});
