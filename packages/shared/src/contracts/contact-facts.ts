import { z } from 'zod';
import { defineContract } from './message-contract';

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Why an address is on its account's suppression list (docs/consent.md). */
export const SUPPRESSION_REASONS = ['unsubscribed', 'bounced', 'complained'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

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
  /**
   * The standing suppression of the contact's address, or null. Optional: a fact written before
   * the suppression list existed has none, and means "nothing known against the address".
   */
  suppression: z.enum(SUPPRESSION_REASONS).nullable().optional(),
  /**
   * Double opt-in: the contact was created pending and has not confirmed yet (not subscribed; no
   * workflow enrols it). Optional: absent means false, as in every fact written before it existed.
   */
  pending_confirmation: z.boolean().optional(),
});
export type ContactSnapshot = z.infer<typeof contactSnapshotSchema>;

const contactFact = z.object({
  account_id: z.number().int().positive(),
  contact: contactSnapshotSchema,
  occurred_at: z.string(),
});

export const contactCreatedV1 = defineContract('contact.created.v1', contactFact);

/** The most `contact.created.v1` facts one `contacts.created.v1` message carries. */
export const MAX_FACTS_PER_MESSAGE = 100;

/**
 * Several `contact.created.v1` facts in one message, published by contacts' relay under the
 * routing key of `contact.created.v1` (so every queue bound to that fact gets it) when one pass
 * has more than one: a burst of sign-ups or an import costs one message, not one per contact.
 * Each fact keeps the id it would have had as a message of its own (its outbox row's), which
 * consumers key it by (a webhook's id), and is handled as if it had come alone.
 */
export const contactsCreatedV1 = defineContract(
  'contacts.created.v1',
  z.object({ facts: z.array(z.object({ id: z.string().min(1), fact: contactFact })).min(2).max(MAX_FACTS_PER_MESSAGE) }),
);
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

/**
 * Double opt-in: the contacts service created a pending contact; automation sends it the account's
 * confirmation email (with a link to confirm) through its one sending pipeline.
 */
export const contactConfirmationRequestedV1 = defineContract(
  'contact.confirmation_requested.v1',
  z.object({
    account_id: z.number().int().positive(),
    contact: contactSnapshotSchema,
    occurred_at: z.string(),
  }),
);

/** A recipient confirmed through the link in the confirmation email: contacts subscribes the contact. */
export const contactConfirmedV1 = defineContract(
  'contact.confirmed.v1',
  z.object({
    account_id: z.number().int().positive(),
    contact_id: z.number().int().positive(),
    /** When, and from which IP address, the confirmation came: the consent record. */
    confirmed_at: z.string(),
    confirmed_from: z.string(),
  }),
);

/** A recipient clicked the unsubscribe link: the contacts service sets `subscribed: false`. */
export const contactUnsubscribeRequestedV1 = defineContract(
  'contact.unsubscribe_requested.v1',
  z.object({
    account_id: z.number().int().positive(),
    contact_id: z.number().int().positive(),
    /** The address as the unsubscribe link's sender knew it: suppressed even if the contact is gone. */
    email: z.string().optional(),
    occurred_at: z.string(),
  }),
);
