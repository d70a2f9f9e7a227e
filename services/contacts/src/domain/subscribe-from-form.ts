import { AppError, notFound, validationFailed } from '@mailer/shared';
import { findContactByEmail } from '../data-access/contacts.repository';
import { doubleOptInEnabled } from '../data-access/double-opt-in.repository';
import { accountOfForm } from '../data-access/subscribe-forms.repository';
import { standingSuppression } from '../data-access/suppressions.repository';
import { ContactErrorCodes } from './contact.errors';
import { createContact, type ContactUseCaseDeps } from './create-contact';

export interface FormInput {
  email: string;
  first_name: string;
}

/**
 * Someone filled in the account's hosted subscribe form. A new address becomes a contact (source
 * "form"): pending with a confirmation email under double opt-in, else subscribed at once unless the
 * address is suppressed (a stranger's form entry never lifts someone's "no"). An address already in
 * the account changes nothing, and the answer is the same, so the form tells nobody who is listed.
 */
export async function subscribeFromForm(deps: ContactUseCaseDeps, token: string, input: FormInput): Promise<void> {
  const accountId = await accountOfForm(deps.pool, token);
  if (accountId === undefined) throw notFound('subscribe form');
  const email = input.email.trim();
  if (email === '' || email.length > 254) throw validationFailed(['email is invalid']);
  const firstName = input.first_name.trim().slice(0, 255) || null;
  if (await findContactByEmail(deps.pool, accountId, email)) return;
  const doubleOptIn = await doubleOptInEnabled(deps.pool, accountId);
  const suppressed = doubleOptIn ? null : await standingSuppression(deps.pool, accountId, email);
  try {
    await createContact(deps, accountId, { email, first_name: firstName, subscribed: suppressed === null, source: 'form' }, { doubleOptIn });
  } catch (error) {
    // Two submissions of one address at once: the first one wins, the answer is the same.
    if (error instanceof AppError && error.code === ContactErrorCodes.EMAIL_TAKEN) return;
    throw error;
  }
}
