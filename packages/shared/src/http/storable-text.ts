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

/**
 * `isStorableText` as a JSON Schema pattern (ECMAScript with the `u` flag, as OpenAPI 3.1 tools
 * use it): in unicode mode `[\ud800-\udfff]` matches only a lone surrogate, never half of a pair.
 */
export const STORABLE_TEXT_PATTERN = '^[^\\u0000\\ud800-\\udfff]*$';

/** Storable text with at least one character that is not white space (a name that must not be blank). */
export const NOT_BLANK_TEXT_PATTERN = '^[^\\u0000\\ud800-\\udfff]*[^\\s\\u0000\\ud800-\\udfff][^\\u0000\\ud800-\\udfff]*$';
