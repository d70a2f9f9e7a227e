import { isWellFormedEmail, type SuppressionReason } from '@mailer/shared';

/** Why an email was not sent, in the words a user reads in the log, the ledger and the metrics. */
export type SkipReason =
  | 'not subscribed'
  | 'unsubscribed'
  | 'bounced'
  | 'suppressed'
  | 'contact deleted'
  | 'contact unknown'
  | 'invalid address';

/** What the check reads of automation's contact projection (fed by contact.* facts). */
export interface SendableContact {
  email: string;
  subscribed: boolean;
  bounced: boolean;
  deleted: boolean;
  /** The address's standing entry on the account's suppression list, or null. */
  suppression: SuppressionReason | null;
}

/**
 * The one check right before SMTP, for every send (workflow steps and campaign emails alike):
 * undefined when the contact may be emailed now, else why not (docs/consent.md). A suppressed
 * address is never emailed, transactional or not; a transactional email may go to a contact who
 * simply never subscribed.
 */
export function whyNotSend(contact: SendableContact | undefined, options: { transactional: boolean }): SkipReason | undefined {
  if (!contact) return 'contact unknown';
  if (contact.deleted) return 'contact deleted';
  if (contact.bounced || contact.suppression === 'bounced') return 'bounced';
  if (contact.suppression !== null) {
    // The contact's own "no" reads as such; an address suppressed while the contact says subscribed
    // (or a transactional email overriding "not subscribed") is the list speaking.
    return contact.subscribed || options.transactional ? 'suppressed' : 'unsubscribed';
  }
  if (!contact.subscribed && !options.transactional) return 'not subscribed';
  if (!isWellFormedEmail(contact.email)) return 'invalid address';
  return undefined;
}

/**
 * The one check before a product event enrols a contact in the account's workflows: undefined when
 * it may, else why not. A contact awaiting its double opt-in confirmation enrols in nothing (not
 * even transactional workflows): the next event after the confirmation enrols it as usual.
 */
export function whyNotEnrol(contact: { pending_confirmation?: boolean | undefined }): 'awaiting confirmation' | undefined {
  return contact.pending_confirmation ? 'awaiting confirmation' : undefined;
}
