import type { QueryResult, QueryResultRow } from 'pg';

/** A pool or a client inside a transaction: repositories run on either. */
export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}
