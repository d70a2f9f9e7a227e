import { z } from 'zod';

/** The spec's pagination `meta`: the same four integers on every list endpoint. */
export const paginationMetaSchema = z.object({
  current_page: z.number().int().describe('The page returned, from 1.'),
  total_pages: z.number().int().describe('How many pages the filtered list has.'),
  total_count: z.number().int().describe('How many items match the filters.'),
  per_page: z.number().int().describe('Items per page (default 25, at most 100).'),
});

/** The spec's list envelope around `item`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: paginationMetaSchema });

/** The single-resource envelope `{ data: <resource> }`. */
export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** Every non-422 error body the services and the gateway send: `{ error }` (the middleware's shape). */
export const errorBodySchema = z.object({ error: z.string().describe('What went wrong, for a human.') });

/** A 422 body without a domain check: `{ errors: [string] }`. */
export const validationErrorSchema = z.object({
  errors: z.array(z.string()).describe('One sentence per problem found.'),
});
