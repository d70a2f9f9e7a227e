import { z } from 'zod';
import { isStorableText, NOT_BLANK_TEXT_PATTERN, STORABLE_TEXT_PATTERN, UNSTORABLE_TEXT_MESSAGE } from '@mailer/shared';
import { invalidContact } from '../../domain/contact.errors';
import { CONTACT_LIMITS } from '../../domain/contact-limits';
import { DEFAULT_PER_PAGE } from '../../domain/read-contacts';

export interface ListQuery {
  q: string | undefined;
  subscribed: boolean | undefined;
  bounced: boolean | undefined;
  tag: string | undefined;
  page: number;
  perPage: number;
}

const MAX_Q_LENGTH = 320;
const Q_PROBLEM = `q must be a single string of at most ${MAX_Q_LENGTH} characters`;

const positiveInteger = (name: string) => {
  const problem = `${name} must be a positive integer`;
  return z.string({ error: problem }).regex(/^\d+$/, { message: problem, abort: true }).transform(Number);
};

// A repeated parameter arrives as an array: refused like any other non-text value.
const flag = (name: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .transform((value) => value === 'true')
    .optional();

/** `GET /contacts` query parameters, in the order problems are reported; the OpenAPI document shows this schema. */
export const listContactsQuerySchema = z.object({
  q: z
    .string({ error: Q_PROBLEM })
    .max(MAX_Q_LENGTH, { message: Q_PROBLEM, abort: true })
    .refine(isStorableText, `q ${UNSTORABLE_TEXT_MESSAGE}`)
    .meta({ pattern: STORABLE_TEXT_PATTERN })
    .optional()
    .describe('Partial-match filter on email.'),
  subscribed: flag('subscribed').describe('Filter by subscription status: true or false.'),
  bounced: flag('bounced').describe('Filter by bounce status: true or false.'),
  tag: z
    .string({ error: 'tag must be a single tag name' })
    .transform((name) => name.trim())
    .pipe(
      z
        .string()
        .min(1, 'tag must not be blank')
        .max(CONTACT_LIMITS.tagNameLength, `tag must be at most ${CONTACT_LIMITS.tagNameLength} characters`)
        .refine(isStorableText, `tag ${UNSTORABLE_TEXT_MESSAGE}`),
    )
    .meta({ type: 'string', minLength: 1, maxLength: CONTACT_LIMITS.tagNameLength, pattern: NOT_BLANK_TEXT_PATTERN })
    .optional()
    .describe('Only contacts with this tag (case-insensitive). An extension beside the interface filters.'),
  page: positiveInteger('page')
    .refine((value) => value >= 1 && Number.isSafeInteger(value), 'page must be a positive integer')
    .meta({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, pattern: undefined })
    .optional()
    .describe('Page number, from 1 (default 1).'),
  per_page: positiveInteger('per_page')
    .refine((value) => value >= 1, 'per_page must be a positive integer')
    // Digits beyond the safe range: a per_page that large is simply the maximum.
    .transform((value) => (Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER))
    .meta({ type: 'integer', minimum: 1, pattern: undefined })
    .optional()
    .describe('Results per page; maximum 100 (larger is served as 100); default 25.'),
});

/** The list's query string, strictly: every problem is a 422 listing all of them. */
export function parseListQuery(query: Record<string, unknown>): ListQuery {
  const result = listContactsQuerySchema.safeParse(query);
  if (!result.success) throw invalidContact(result.error.issues.map((issue) => issue.message));
  const { q, subscribed, bounced, tag, page, per_page: perPage } = result.data;
  return { q: q === '' ? undefined : q, subscribed, bounced, tag, page: page ?? 1, perPage: perPage ?? DEFAULT_PER_PAGE };
}
