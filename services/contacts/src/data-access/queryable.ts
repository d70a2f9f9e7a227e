import type { Pool, PoolClient } from '@mailer/shared';

/** A pool for single statements, or a transaction's client: repositories accept either. */
export type Queryable = Pool | PoolClient;
