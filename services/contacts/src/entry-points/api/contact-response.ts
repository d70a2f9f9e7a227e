import type { Contact } from '../../domain/contact';
import type { ContactPage } from '../../domain/read-contacts';

/** The spec's Contact resource: fixed fields, ISO 8601 UTC timestamps. */
export const contactResource = (contact: Contact) => ({
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

export const contactPageResource = (page: ContactPage) => ({
  data: page.contacts.map(contactResource),
  meta: {
    current_page: page.page,
    total_pages: page.totalPages,
    total_count: page.totalCount,
    per_page: page.perPage,
  },
});
