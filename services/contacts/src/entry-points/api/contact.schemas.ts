import { z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '@mailer/shared';
import { isWellFormedEmail } from '../../domain/email-format';

const MAX_TEXT = 255;

const email = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .refine((value) => isStorableText(value) && isWellFormedEmail(value), 'is invalid');

const optionalText = z
  .string({ error: 'must be a string or null' })
  .max(MAX_TEXT, `is too long (at most ${MAX_TEXT} characters)`)
  .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
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
          .max(100, 'is too long (at most 100 characters)')
          .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
      ),
    { error: 'must be an array of strings' },
  )
  .max(100, 'has too many entries (at most 100 per request)')
  .optional();

const propertyKey = z
  .string()
  .min(1, 'key must not be empty')
  .max(MAX_TEXT, `key is too long (at most ${MAX_TEXT} characters)`)
  .refine(isStorableText, `key ${UNSTORABLE_TEXT_MESSAGE}`);
const scalar = z.union([z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE), z.number(), z.boolean()], {
  error: 'values must be strings, numbers, booleans or null',
});
const customProperties = z.record(propertyKey, scalar.nullable(), { error: 'must be an object' });

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

/** zod issues as "field message" sentences for the 422 `errors` array. */
export function issueMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path} ${issue.message}` : issue.message;
  });
}
