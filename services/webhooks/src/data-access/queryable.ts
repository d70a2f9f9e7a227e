import type { Pool, PoolClient } from '@mailer/shared';

export type Queryable = Pool | PoolClient;
