import { z } from 'zod';
import { defineContract } from './message-contract';

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The contact as other services see it: enough to personalise and to suppress. */
export const contactSnapshotSchema = z.object({
  id: z.number().int().positive(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  subscribed: z.boolean(),
  bounced: z.boolean(),
  tags: z.array(z.string()),
  custom_properties: z.record(z.string(), scalar),
});
export type ContactSnapshot = z.infer<typeof contactSnapshotSchema>;

const contactFact = z.object({
  account_id: z.number().int().positive(),
  contact: contactSnapshotSchema,
  occurred_at: z.string(),
});

export const contactCreatedV1 = defineContract('contact.created.v1', contactFact);
export const contactUpdatedV1 = defineContract(
  'contact.updated.v1',
  contactFact.extend({ changed: z.array(z.string()) }),
);
export const contactDeletedV1 = defineContract(
  'contact.deleted.v1',
  z.object({
    account_id: z.number().int().positive(),
    contact_id: z.number().int().positive(),
    email: z.string(),
    occurred_at: z.string(),
  }),
);

/** Automation saw a permanent SMTP rejection: the contacts service marks the contact bounced. */
export const contactBouncedV1 = defineContract(
  'contact.bounced.v1',
  z.object({
    account_id: z.number().int().positive(),
    email: z.string(),
    reason: z.string(),
    occurred_at: z.string(),
  }),
);

/** A recipient clicked the unsubscribe link: the contacts service sets `subscribed: false`. */
export const contactUnsubscribeRequestedV1 = defineContract(
  'contact.unsubscribe_requested.v1',
  z.object({
    account_id: z.number().int().positive(),
    contact_id: z.number().int().positive(),
    occurred_at: z.string(),
  }),
);
