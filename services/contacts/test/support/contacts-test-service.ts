import { randomBytes, randomInt } from 'node:crypto';
import { createLogger, type ConsumeOutcome } from '@mailer/shared';
import { serviceTestEnv, startDnsTestServer, testServers, type DnsTestServer } from '@mailer/testing';
import { loadContactsConfig } from '../../src/config';
import { startContactsService } from '../../src/contacts-service';
import { contactsApi } from './contacts-api';

export interface Outcome {
  queue: string;
  outcome: ConsumeOutcome;
  messageId: string | undefined;
}

export type ContactsTestService = Awaited<ReturnType<typeof startContactsForTest>>;

/** DNS answers to 500 ms: slow.test then fails fast, as DNS_TIMEOUT_MS promises. */
export const TEST_DNS_TIMEOUT_MS = 500;

/**
 * The real service in-process on port 0, with its own database (so its outbox relay publishes only
 * this file's rows), its own broker namespace, and a loopback DNS server answering from fixtures.
 */
export async function startContactsForTest(overrides: Record<string, string> = {}) {
  const dns: DnsTestServer = await startDnsTestServer();
  const env = serviceTestEnv({
    DB_PREFIX: `${testServers().dbPrefix}${randomBytes(3).toString('hex')}_`,
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: String(TEST_DNS_TIMEOUT_MS),
    ...overrides,
  });
  const config = loadContactsConfig(env);
  const outcomes: Outcome[] = [];
  const service = await startContactsService(config, createLogger('contacts', { level: 'silent' }), {
    onMessageOutcome: (queue, outcome, messageId) => outcomes.push({ queue, outcome, messageId }),
  });
  await service.broker.ready();
  return {
    ...service,
    config,
    dns,
    outcomes,
    api: contactsApi(service.url),
    stop: async () => {
      await service.stop();
      await dns.close();
    },
  };
}

/** A fresh account id: every test works in an account of its own. */
export const newAccountId = () => randomInt(1, 2 ** 31);

/** A unique address at a domain the test DNS server answers for (a fresh name: never cached). */
export const uniqueEmail = (zone = 'mx.test', local = 'user') =>
  `${local}.${randomBytes(4).toString('hex')}@d${randomBytes(4).toString('hex')}.${zone}`;
