import { randomBytes } from 'node:crypto';
import { rememberNamespace } from './namespace-registry';
import { testServers } from './test-environment';

/** The signing secret every in-process service of a test shares with its gateway. */
export const TEST_SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';

/**
 * An environment for starting a service in-process in a test: this run's servers, port 0, and a
 * broker namespace of its own unless one is given (services that talk share one namespace).
 */
export function serviceTestEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const servers = testServers();
  const env: NodeJS.ProcessEnv = {
    POSTGRES_URL: servers.postgresUrl,
    DB_PREFIX: servers.dbPrefix,
    REDIS_URL: servers.redisUrl,
    REDIS_KEY_PREFIX: servers.redisKeyPrefix,
    AMQP_URL: servers.amqpUrl,
    BROKER_NAMESPACE: `t${randomBytes(4).toString('hex')}.`,
    INTERNAL_SIGNING_SECRET: TEST_SIGNING_SECRET,
    LOG_LEVEL: 'silent',
    PORT: '0',
    // The gateway's second internal listener (the account app's API): any free port in a test.
    GATEWAY_INTERNAL_PORT: '0',
    ...overrides,
  };
  rememberNamespace(env.BROKER_NAMESPACE ?? '');
  return env;
}
