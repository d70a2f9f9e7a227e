import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '@mailer/shared';
import { invalidContact } from '../../domain/contact.errors';
import { DEFAULT_PER_PAGE } from '../../domain/read-contacts';

export interface ListQuery {
  q: string | undefined;
  subscribed: boolean | undefined;
  bounced: boolean | undefined;
  page: number;
  perPage: number;
}

const MAX_Q_LENGTH = 320;

function positiveInteger(name: string, value: unknown, fallback: number, problems: string[]): number {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && /^\d+$/.test(value)) {
    const number = Number(value);
    if (number >= 1 && Number.isSafeInteger(number)) return number;
    // Digits beyond the safe range: a per_page that large is simply the maximum.
    if (number >= 1 && name === 'per_page') return Number.MAX_SAFE_INTEGER;
  }
  problems.push(`${name} must be a positive integer`);
  return fallback;
}

function flag(name: string, value: unknown, problems: string[]): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  problems.push(`${name} must be true or false`);
  return undefined;
}

/** The list's query string, strictly: every problem is a 422 listing all of them. */
export function parseListQuery(query: Record<string, unknown>): ListQuery {
  const problems: string[] = [];
  const q = query.q;
  if (q !== undefined && (typeof q !== 'string' || q.length > MAX_Q_LENGTH)) {
    problems.push(`q must be a single string of at most ${MAX_Q_LENGTH} characters`);
  } else if (typeof q === 'string' && !isStorableText(q)) {
    problems.push(`q ${UNSTORABLE_TEXT_MESSAGE}`);
  }
  const parsed: ListQuery = {
    q: typeof q === 'string' && q.length > 0 ? q : undefined,
    subscribed: flag('subscribed', query.subscribed, problems),
    bounced: flag('bounced', query.bounced, problems),
    page: positiveInteger('page', query.page, 1, problems),
    perPage: positiveInteger('per_page', query.per_page, DEFAULT_PER_PAGE, problems),
  };
  if (problems.length > 0) throw invalidContact(problems);
  return parsed;
}
