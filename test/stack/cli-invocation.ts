import path from 'node:path';
import { root } from './stack-process';

/** What earlier invocations made, by name, for later ones to name in turn. */
export type Made =
  'account' | 'otherAccount' | 'expiringKey' | 'spareKey' | 'campaign' | 'importedSent' | 'webhook';

/** The id (or other value) an earlier invocation kept under `name`. */
export type Lookup = (name: Made) => string;

/** Files and addresses the test prepares before the invocations run. */
export interface Inputs {
  html: string;
  text: string;
  /** A webhook receiver's URL on loopback (WEBHOOK_ALLOWED_HOSTS allows it). */
  hookUrl: string;
}

/** Exit 0 and this JSON on stdout, as jest's `toEqual` compares it (asymmetric matchers welcome). */
interface PrintsJson {
  prints: (made: Lookup) => unknown;
}

/** Exit 0 and text on stdout that `output` matches: a command printing for people or spreadsheets, not JSON. */
interface PrintsText {
  output: RegExp;
}

/**
 * Exit 1 with this message on stderr: for a line whose subject cannot exist in this test (a contact,
 * a webhook delivery, a campaign that automation started sending). The parser accepted every option
 * to get that far; a refused option would have been exit 2 with the usage.
 */
interface Refused {
  refusal: RegExp;
}

/** One concrete run of a usage line: `node scripts/admin.mjs <args>`. */
export type Invocation = {
  /** The usage line it exercises, spelt as `usageLinesOf` reads it. */
  line: string;
  args: (made: Lookup, inputs: Inputs) => string[];
  /** Values later invocations need, from this one's JSON. */
  keeps?: (json: unknown) => Partial<Record<Made, string>>;
} & (PrintsJson | PrintsText | Refused);

/** The value at `path` in parsed JSON, as text (ids are kept as the CLI arguments they become). */
export function valueAt(json: unknown, ...path: Array<string | number>): string {
  let value: unknown = json;
  for (const step of path) {
    if (typeof value !== 'object' || value === null)
      throw new Error(`no ${path.join('.')} in ${JSON.stringify(json)}`);
    value = (value as Record<string | number, unknown>)[step];
  }
  if (typeof value !== 'string' && typeof value !== 'number')
    throw new Error(`no ${path.join('.')} in ${JSON.stringify(json)}`);
  return String(value);
}

/** Jest's matchers, shorter: an object with at least these fields; an array holding such an object. */
export const having = (fields: Record<string, unknown>): unknown => expect.objectContaining(fields);
export const holding = (fields: Record<string, unknown>): unknown => expect.arrayContaining([having(fields)]);

/** A file of the repository's examples folder, as an operator would pass it. */
export const example = (...parts: string[]) => path.join(root, 'examples', ...parts);
