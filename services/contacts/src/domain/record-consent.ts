import type { Logger } from '@mailer/shared';
import type { Queryable } from '../data-access/queryable';
import { liftSuppression, suppressAddress } from '../data-access/suppressions.repository';
import type { Contact, SuppressionReason } from './contact';

/** Who lifted a suppression, as the lifted row records it, when the account holder said yes. */
export const LIFTED_BY_ACCOUNT_HOLDER = 'account holder: subscribed true over the API';

/** Every lift is logged (docs/consent.md), whichever statement made it. */
export function logSuppressionLifted(logger: Logger, contact: Pick<Contact, 'account_id' | 'id'>, lifted: SuppressionReason): void {
  logger.info(
    { accountId: contact.account_id, contactId: contact.id, suppression: lifted },
    'suppression lifted: the account holder set subscribed true',
  );
}

/**
 * The account holder set `subscribed` explicitly (REST create or PATCH). `false` is a "no": the
 * address goes on the suppression list. `true` is the one thing that lifts a suppression, and
 * that is logged here (the lifted row keeps who and when). Resolves to true when the list changed.
 */
export async function applyConsent(logger: Logger, db: Queryable, contact: Contact, subscribed: boolean): Promise<boolean> {
  if (!subscribed) return suppressAddress(db, contact.account_id, contact.email, 'unsubscribed', 'api');
  const lifted = await liftSuppression(db, contact.account_id, contact.email, LIFTED_BY_ACCOUNT_HOLDER);
  if (lifted === undefined) return false;
  logSuppressionLifted(logger, contact, lifted);
  return true;
}
