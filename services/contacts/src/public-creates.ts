import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import { createPool, isPlainJsonBody, parseJsonBytes, type EmailDomainValidator, type JsonAnswer, type Pool } from '@mailer/shared';
import type { ContactsDatabaseOptions } from './database';
import { contactAnswers } from './entry-points/api/contact-answers';
import { CONTACT_BODY_LIMIT_BYTES } from './entry-points/api/contacts.routes';
import { hostedAnswer } from './entry-points/api/hosted-answer';

export { contactsDatabaseUrl } from './database';

const CREATE_PATH = '/api/v1/contacts';

export interface ContactCreatesOptions extends ContactsDatabaseOptions {
  /** The address's domain check, as contacts makes it (the same Redis cache when given the same Redis). */
  emailValidator: EmailDomainValidator;
}

/**
 * Contacts' `POST /api/v1/contacts` for the gateway to answer in its own process, right after its
 * key check and limits, as it answers contacts' reads (docs/decisions.md, "Session 40"): the
 * create costs no second HTTP hop and no second process. The code, the statement (shared by the
 * creates in flight), the pool and the database are contacts' own; the `contact.created` fact goes
 * into contacts' outbox in the same statement and contacts' relay publishes it. The answers are
 * those the contacts service gives for the same request, errors included; any request in a shape
 * other than the common one (`takes`) is left to the contacts service.
 */
export class ContactCreates {
  private readonly answers: ReturnType<typeof contactAnswers>;

  private constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
    emailValidator: EmailDomainValidator,
  ) {
    this.answers = contactAnswers({ pool, emailValidator, logger });
  }

  static connect(options: ContactCreatesOptions): ContactCreates {
    const pool = createPool(options.databaseUrl, options.logger, { max: options.poolSize });
    return new ContactCreates(pool, options.logger, options.emailValidator);
  }

  /**
   * Whether this is a create served here: the exact path (any query string) and one plain JSON
   * body of a declared length within contacts' limit. Anything else (encoded or chunked bodies,
   * another media type, a trailing slash) goes to the contacts service, which answers it.
   */
  takes(method: string | undefined, url: string, headers: IncomingHttpHeaders): boolean {
    if (method !== 'POST') return false;
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    return path === CREATE_PATH && isPlainJsonBody(headers, CONTACT_BODY_LIMIT_BYTES);
  }

  /** The largest body `takes` accepts, for the caller reading it. */
  readonly bodyLimitBytes = CONTACT_BODY_LIMIT_BYTES;

  /** The answer to a create with these body bytes, for the account; never rejects (a failure is its error answer). */
  create(accountId: number, body: Buffer): Promise<JsonAnswer> {
    return hostedAnswer(this.logger, 'POST', CREATE_PATH, () => this.answers.create(accountId, parseJsonBytes(body)));
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
