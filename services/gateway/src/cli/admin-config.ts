import { z } from 'zod';
import { envFields, loadConfig, postgresEnv, redisEnv } from '@mailer/shared';

/**
 * What the operator CLI reads: the database and Redis, nothing else. It signs nothing and serves
 * nothing, so it needs no secret: a first `accounts create` works with nothing exported.
 */
const adminEnvSchema = z.object({ LOG_LEVEL: envFields.logLevel, ...postgresEnv, ...redisEnv });

export const loadAdminConfig = (env: NodeJS.ProcessEnv) => loadConfig(adminEnvSchema, env);
