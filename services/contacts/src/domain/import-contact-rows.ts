import { AppError, CommonErrorCodes } from '@mailer/shared';
import { findContactByEmail } from '../data-access/contacts.repository';
import { doubleOptInEnabled } from '../data-access/double-opt-in.repository';
import { ContactErrorCodes } from './contact.errors';
import { createContact, type ContactUseCaseDeps } from './create-contact';
import { distinctTags, type NewContactInput } from './contact-input';
import { checkContactLimits } from './contact-limits';
import { updateContactFields } from './update-contact';

/** What became of one imported row: its contact's id, or the reasons in the API's wording. */
export type RowOutcome =
  | { outcome: 'created' | 'updated'; id: number }
  | { outcome: 'valid'; existing: boolean }
  | { outcome: 'failed'; errors: string[] };

/** Rows handled at once: each is its own transaction; the address verdicts are cached per domain. */
const CONCURRENCY = 8;

const reasonsOf = (error: AppError): string[] => (error.messages.length > 0 ? error.messages : [error.message]);

/**
 * One imported row by the same rules as the API (address rule, domain verdict, limits, consent):
 * an address already in the account is updated (names given are set, tags added, properties
 * merged; `subscribed` only when the file says so), any other is created. A dry run checks
 * everything a write would (shape, address, domain, limits) and writes nothing.
 */
async function importRow(deps: ContactUseCaseDeps, accountId: number, input: NewContactInput, dryRun: boolean, doubleOptIn: boolean): Promise<RowOutcome> {
  const { email: _email, ...changes } = input;
  if (dryRun) {
    checkContactLimits({ customProperties: input.custom_properties ?? {}, tagCount: distinctTags(input.tags ?? []).length });
    const email = await deps.emailValidator.validate(input.email);
    return { outcome: 'valid', existing: (await findContactByEmail(deps.pool, accountId, email)) !== undefined };
  }
  const existing = await findContactByEmail(deps.pool, accountId, input.email);
  if (existing) return { outcome: 'updated', id: (await updateContactFields(deps, accountId, existing.id, changes)).id };
  try {
    return { outcome: 'created', id: (await createContact(deps, accountId, input, { doubleOptIn })).id };
  } catch (error) {
    // Created meanwhile (the same address twice in one batch, or another writer): update it instead.
    if (!(error instanceof AppError) || error.code !== ContactErrorCodes.EMAIL_TAKEN) throw error;
    const raced = await findContactByEmail(deps.pool, accountId, input.email);
    if (!raced) throw error;
    return { outcome: 'updated', id: (await updateContactFields(deps, accountId, raced.id, changes)).id };
  }
}

/**
 * A batch of rows (already shape-checked, or the shape's reasons for one that is not) imported in
 * order of arrival, a few at a time. Client mistakes become the row's failure; anything else (a
 * database outage) fails the whole batch, so the caller retries it and loses nothing.
 */
export async function importContactRows(
  deps: ContactUseCaseDeps,
  accountId: number,
  rows: Array<NewContactInput | { errors: string[] }>,
  dryRun: boolean,
): Promise<RowOutcome[]> {
  const outcomes: RowOutcome[] = new Array<RowOutcome>(rows.length);
  // New contacts an import says "subscribed" start pending when the account asked for double opt-in.
  const doubleOptIn = await doubleOptInEnabled(deps.pool, accountId);
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const index = next++;
      const row = rows[index]!;
      if ('errors' in row) {
        outcomes[index] = { outcome: 'failed', errors: row.errors };
        continue;
      }
      try {
        outcomes[index] = await importRow(deps, accountId, row, dryRun, doubleOptIn);
      } catch (error) {
        if (!(error instanceof AppError) || !isClientMistake(error)) throw error;
        outcomes[index] = { outcome: 'failed', errors: reasonsOf(error) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
  return outcomes;
}

/** Refusals of the row itself (422 in the API); an unavailable dependency is not one. */
function isClientMistake(error: AppError): boolean {
  return error.code.startsWith('CONTACT.') || error.code.startsWith('EMAIL.') || error.code === CommonErrorCodes.VALIDATION;
}
