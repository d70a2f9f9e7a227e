import { z } from 'zod';
import {
  isStorableText,
  MAX_EMAIL_LENGTH,
  normaliseEmail,
  NOT_BLANK_TEXT_PATTERN,
  STORABLE_TEXT_PATTERN,
  UNSTORABLE_TEXT_MESSAGE,
} from '@mailer/shared';
import { CONTACT_LIMITS } from '../../domain/contact-limits';

const MAX_TEXT = CONTACT_LIMITS.textLength;
const MAX_VALUE = CONTACT_LIMITS.customPropertyValueLength;

/** The shared address rule: surrounding spaces trimmed, the domain lower-cased and in ASCII. */
const email = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .transform((value, context) => {
    const normalised = isStorableText(value) ? normaliseEmail(value) : undefined;
    if (normalised) return normalised.address;
    context.addIssue({ code: 'custom', message: 'is invalid' });
    return z.NEVER;
  })
  // What the document promises; the transform above is the rule itself (docs/api.md, "Addresses").
  .meta({
    format: 'email',
    minLength: 3,
    maxLength: MAX_EMAIL_LENGTH,
    description:
      'A deliverable address: trimmed; local part kept as given; the domain lower-cased and IDNA-normalised; ' +
      'the domain must not be disposable and must have an MX or A record.',
  });

const optionalText = z
  .string({ error: 'must be a string or null' })
  .max(MAX_TEXT, `is too long (at most ${MAX_TEXT} characters)`)
  .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
  .meta({ pattern: STORABLE_TEXT_PATTERN })
  .nullable()
  .optional();

const tags = z
  .array(
    z
      .string({ error: 'must be a string' })
      .transform((name) => name.trim())
      .pipe(
        z
          .string()
          .min(1, 'must not be blank')
          .max(CONTACT_LIMITS.tagNameLength, `is too long (at most ${CONTACT_LIMITS.tagNameLength} characters)`)
          .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
      )
      .meta({ type: 'string', minLength: 1, maxLength: CONTACT_LIMITS.tagNameLength, pattern: NOT_BLANK_TEXT_PATTERN }),
    { error: 'must be an array of strings' },
  )
  .max(CONTACT_LIMITS.tagsPerRequest, `has too many entries (at most ${CONTACT_LIMITS.tagsPerRequest} per request)`)
  .optional();

const propertyKey = z
  .string()
  .min(1, 'key must not be empty')
  .max(MAX_TEXT, `key is too long (at most ${MAX_TEXT} characters)`)
  .refine(isStorableText, `key ${UNSTORABLE_TEXT_MESSAGE}`)
  .meta({ pattern: STORABLE_TEXT_PATTERN });
// The value's own rules after the union: a union reports only its own message when an option fails.
const scalar = z
  .union([z.string(), z.number(), z.boolean()], { error: 'values must be strings, numbers, booleans or null' })
  .refine((value) => typeof value !== 'string' || value.length <= MAX_VALUE, `is too long (at most ${MAX_VALUE} characters)`)
  .refine((value) => typeof value !== 'string' || isStorableText(value), UNSTORABLE_TEXT_MESSAGE)
  .meta({
    anyOf: [{ type: 'string', maxLength: MAX_VALUE, pattern: STORABLE_TEXT_PATTERN }, { type: 'number' }, { type: 'boolean' }],
  });
const customProperties = z.record(propertyKey, scalar.nullable(), { error: 'must be an object' }).meta({
  maxProperties: CONTACT_LIMITS.customProperties,
  description:
    `At most ${CONTACT_LIMITS.customProperties} entries, ${CONTACT_LIMITS.customPropertiesBytes} bytes as JSON in all; ` +
    'on PATCH entries merge key by key and null removes one.',
});

const subscribed = z.boolean({ error: 'must be true or false' }).optional();

/** POST fields; anything else (id, bounced, timestamps, unknown keys) is dropped, never written. */
export const newContactSchema = z.object({
  email,
  first_name: optionalText,
  last_name: optionalText,
  subscribed,
  source: optionalText,
  tags,
  // On create a null value means "not set": the entry is simply not stored.
  custom_properties: customProperties
    .transform((properties) =>
      Object.fromEntries(
        Object.entries(properties).filter(
          (entry): entry is [string, string | number | boolean] => entry[1] !== null,
        ),
      ),
    )
    .optional(),
});

/** PATCH fields: all optional; a custom property set to null is removed. */
export const contactChangesSchema = z.object({
  email: email.optional(),
  first_name: optionalText,
  last_name: optionalText,
  subscribed,
  source: optionalText,
  tags,
  custom_properties: customProperties.optional(),
});
