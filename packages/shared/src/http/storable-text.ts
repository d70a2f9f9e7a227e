const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether Postgres can store `text` as given: it refuses NUL in text and jsonb, and an unpaired
 * UTF-16 surrogate (valid in a JSON string) fails in jsonb and is silently replaced in text.
 * Input fields check this so such a value is a 422, not a 500 from the database.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !UNPAIRED_SURROGATE.test(text);
}

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';
