import { parse as parseQueryString } from 'node:querystring';
import type { Logger } from 'pino';
import { createPool, type JsonAnswer, type Pool } from '@mailer/shared';
import type { ContactsDatabaseOptions } from './database';
import { contactReadAnswers } from './entry-points/api/contact-answers';
import { hostedAnswer } from './entry-points/api/hosted-answer';

/** Where contacts' database is (it creates and migrates it there); the host of the reads connects to it. */
export { contactsDatabaseUrl } from './database';

const LIST_PATH = '/api/v1/contacts';

/**
 * Contacts' public reads (`GET /api/v1/contacts` and `GET /api/v1/contacts/:id`) for the gateway to
 * answer in its own process, right after its key check and limits: a read then costs no second
 * HTTP hop and no second process (docs/decisions.md, "Session 32"). The code, the queries, the pool
 * and the database are contacts' own; contacts keeps owning and migrating its tables, and serves
 * every other request (the writes publish facts through its outbox). The answers are those the
 * contacts service gives for the same request, errors included.
 */
export class ContactReads {
  private readonly answers: ReturnType<typeof contactReadAnswers>;

  private constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
  ) {
    this.answers = contactReadAnswers(pool);
  }

  static connect(options: ContactsDatabaseOptions): ContactReads {
    return new ContactReads(
      createPool(options.databaseUrl, options.logger, { max: options.poolSize }),
      options.logger,
    );
  }

  /**
   * The read `GET url` is, for the account to give it; undefined for any other path, or a read's
   * path in another form (encoded, a trailing slash), which the contacts service answers. The read
   * never rejects: a failure is its error answer.
   */
  readFor(url: string): ((accountId: number) => Promise<JsonAnswer>) | undefined {
    const read = readOf(url);
    if (read === undefined) return undefined;
    const { path, id, query } = read;
    return (accountId) =>
      hostedAnswer(this.logger, 'GET', path, () =>
        id === undefined
          ? this.answers.list(accountId, parseQueryString(query))
          : this.answers.show(accountId, id),
      );
  }

  close(): Promise<void> {
    return this.pool.end();
  }

}

/** The list (no id) or one contact, from a request target; undefined for any other path. */
function readOf(url: string): { path: string; id?: string; query: string } | undefined {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt + 1);
  if (path === LIST_PATH) return { path, query };
  const id = path.startsWith(`${LIST_PATH}/`) ? path.slice(LIST_PATH.length + 1) : '';
  if (id === '' || id.includes('/') || id.includes('%')) return undefined;
  return { path, id, query };
}
