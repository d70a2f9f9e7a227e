import { z } from 'zod';
import {
  isStorableText,
  MAX_EMAIL_LENGTH,
  normaliseEmail,
  NOT_BLANK_TEXT_PATTERN,
  UNSTORABLE_TEXT_MESSAGE,
} from '@mailer/shared';

export const MAX_PROPERTIES = 100;
/** Deeper values are refused: serialising them (publish, consumers) would overflow the stack. */
export const MAX_PROPERTIES_DEPTH = 32;
/**
 * Bytes of `properties` as JSON (UTF-8). The properties travel in every message about the event and
 * are kept with the workflow run, so they are bounded below the 64 KiB body (docs/api.md).
 */
export const MAX_PROPERTIES_BYTES = 32 * 1024;

/** Whether `value` nests objects/arrays at most `limit` levels deep (iterative: no recursion to overflow). */
function nestedAtMost(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return false;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return true;
}

/**
 * Whether every key and string inside `value` can be stored downstream (contacts and automation
 * keep properties in Postgres jsonb, which refuses NUL): refusing here answers 422 instead of
 * accepting an event that could never be processed. Iterative, like `nestedAtMost`.
 */
function storableThroughout(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node === 'string') {
      if (!isStorableText(node)) return false;
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (!isStorableText(key)) return false;
        pending.push(child);
      }
    }
  }
  return true;
}

/** The body of `POST /v1/events`; unknown top-level fields are ignored. */
export const eventInputSchema = z.object({
  event: z
    .string({ error: 'is required and must be a string' })
    .min(1, 'must be 1 to 100 characters')
    .max(100, 'must be 1 to 100 characters')
    .refine((value) => value.trim().length > 0, 'must not be blank')
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .meta({ pattern: NOT_BLANK_TEXT_PATTERN })
    .describe('Name of the product event, e.g. trial_started.'),
  // The shared address rule, as contacts applies it; the domain verdict follows once the body is valid.
  email: z
    .string({ error: 'is required and must be a string' })
    .max(MAX_EMAIL_LENGTH + 64, 'is invalid')
    .transform((value, context) => {
      const normalised = isStorableText(value) ? normaliseEmail(value) : undefined;
      if (normalised) return normalised.address;
      context.addIssue({ code: 'custom', message: 'is invalid' });
      return z.NEVER;
    })
    .meta({ format: 'email', minLength: 3, maxLength: MAX_EMAIL_LENGTH })
    .describe(
      'Email address of the contact the event concerns: the same address rule and domain verdict as a contact\'s ' +
        '(422 with `domain_error` otherwise, and nothing is published).',
    ),
  properties: z
    .record(z.string(), z.unknown(), { error: 'must be an object' })
    .refine((value) => Object.keys(value).length <= MAX_PROPERTIES, `must have at most ${MAX_PROPERTIES} entries`)
    // Abort: the checks after this one serialise the value, which a deeper one would overflow the stack doing.
    .refine((value) => nestedAtMost(value, MAX_PROPERTIES_DEPTH), {
      message: `must not nest deeper than ${MAX_PROPERTIES_DEPTH} levels`,
      abort: true,
    })
    .refine(storableThroughout, `keys and strings ${UNSTORABLE_TEXT_MESSAGE}`)
    .refine(
      (value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_PROPERTIES_BYTES,
      `must be at most ${MAX_PROPERTIES_BYTES} bytes as JSON`,
    )
    .meta({ maxProperties: MAX_PROPERTIES })
    .optional()
    .describe(
      `Free-form attributes for personalization: at most ${MAX_PROPERTIES} entries, ${MAX_PROPERTIES_BYTES} bytes as JSON, ` +
        `nested at most ${MAX_PROPERTIES_DEPTH} levels; keys and strings without NUL or lone surrogates.`,
    ),
});

export type EventInput = z.output<typeof eventInputSchema>;

/** What the API answers for an accepted event (and replays for a retried `Idempotency-Key`). */
export const acceptedEventSchema = z.object({
  id: z.uuid().describe('The event id; also the id of the message that carries it.'),
  event: z.string(),
  email: z.string(),
  received_at: z.iso.datetime().describe('ISO 8601 UTC timestamp of acceptance.'),
});

export type AcceptedEvent = z.output<typeof acceptedEventSchema>;
