import type { Logger } from 'pino';
import { commonStatusByCode, errorAnswer, logFailedRequest, type JsonAnswer } from '@mailer/shared';
import { notMigratedAsNotReady } from '../../data-access/not-migrated';
import { contactStatusByCode } from '../../domain/contact.errors';

const statusByCode = { ...commonStatusByCode, ...contactStatusByCode };

/**
 * An answer of contacts' code run in another process (the gateway's reads and creates): what
 * `answer` gives, or the error answer this service's own error middleware would give for its
 * failure (a database contacts has not made yet as a 503), logged as this service logs a 5xx.
 * Never rejects.
 */
export async function hostedAnswer(logger: Logger, method: string, path: string, answer: () => Promise<JsonAnswer>): Promise<JsonAnswer> {
  try {
    return await answer();
  } catch (error) {
    const failure = errorAnswer(notMigratedAsNotReady(error), statusByCode);
    logFailedRequest(logger, failure.status, error, method, path);
    return { status: failure.status, body: failure.body, headers: failure.headers };
  }
}
