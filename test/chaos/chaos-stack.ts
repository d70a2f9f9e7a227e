import { randomBytes } from 'node:crypto';
import path from 'node:path';
import amqp from 'amqplib';
import pg from 'pg';
import { createLogger, deadLetterQueueName, QUEUES } from '@mailer/shared';
import {
  freePort,
  serviceTestEnv,
  startDnsTestServer,
  startPrivateRabbitMq,
  startSmtpSink,
  type PrivateServer,
} from '@mailer/testing';
import { loadContactsConfig } from '../../services/contacts/src/config';
import { startContactsService, type ContactsService } from '../../services/contacts/src/contacts-service';
import { loadEventsConfig } from '../../services/events/src/config';
import { startEventsService } from '../../services/events/src/events-service';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGatewayService } from '../../services/gateway/src/gateway-service';
import { createAccount } from '../../services/gateway/src/domain/create-account';
import { createApiKey } from '../../services/gateway/src/domain/manage-api-keys';
import { loadAutomationConfig } from '../../services/automation/src/config';
import { automationDatabaseUrl } from '../../services/automation/src/database';
import { EmailRenderer } from '../../services/automation/src/domain/rendering/render-email';
import { createTriggerRouting } from '../../services/automation/src/domain/routing/trigger-routing';
import type { WorkflowWrites } from '../../services/automation/src/domain/workflows/workflow-writes';
import { automationChild } from './automation-child';

const silent = (service: string) => createLogger(service, { level: (process.env.CHAOS_LOG_LEVEL ?? 'silent') as 'silent' });

/**
 * The event path of the product on a broker we may crash: a PRIVATE RabbitMQ, the gateway, events
 * and contacts in-process (they must survive the broker's death: that is part of the test), and the
 * automation worker as a child process from its build output, so it can be SIGKILLed.
 */
export async function startChaosStack(extraEnv: Record<string, string> = {}) {
  const rabbit: PrivateServer = await startPrivateRabbitMq({ readyTimeoutMs: 60_000 });
  const cleanups: Array<() => Promise<unknown>> = [() => rabbit.stop()];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const dns = await startDnsTestServer();
    cleanups.push(() => dns.close());
    const smtp = await startSmtpSink();
    cleanups.push(() => smtp.close());
    const [gatewayPort, automationPort] = [await freePort(), await freePort()];
    const env = serviceTestEnv({
      DB_PREFIX: `${process.env.DB_PREFIX}chaos${randomBytes(3).toString('hex')}_`,
      AMQP_URL: rabbit.url,
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: '1000',
      SMTP_URL: smtp.url,
      PUBLIC_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
      SCHEDULER_POLL_MS: '100',
      OUTBOX_POLL_MS: '50',
      // A claim of a killed worker is taken over after its lease: short, so the backlog drains in
      // seconds (production: 2 min). Only a presumed-dead claim is re-sent, with the same Message-ID.
      SEND_LEASE_MS: '5000',
      SEND_RETRY_INITIAL_MS: '500',
      SMTP_TIMEOUT_MS: '5000',
      RATE_LIMIT_KEY_PER_MIN: '100000',
      RATE_LIMIT_KEY_PER_HOUR: '1000000',
      RATE_LIMIT_IP_PER_MIN: '100000',
      ...extraEnv,
    });
    const automation = automationChild(
      { ...env, LOG_LEVEL: 'warn' },
      automationPort,
      process.env.CHAOS_AUTOMATION_LOG ?? path.join(rabbit.dir, 'automation.log'),
    );
    cleanups.push(() => automation.stop());
    await automation.start();
    const automationDb = new pg.Pool({
      connectionString: automationDatabaseUrl(loadAutomationConfig(env)),
      max: 2,
    });
    automationDb.on('error', () => undefined);
    cleanups.push(() => automationDb.end());

    const contacts: ContactsService = await startContactsService(loadContactsConfig(env), silent('contacts'));
    cleanups.push(() => contacts.stop());
    const events = await startEventsService(loadEventsConfig(env), silent('events'));
    cleanups.push(() => events.stop());
    const gateway = await startGatewayService(
      loadGatewayConfig({
        ...env,
        GATEWAY_PORT: String(gatewayPort),
        EVENTS_PORT: '0',
        CONTACTS_SERVICE_URL: contacts.url,
        // Campaigns takes no part in the event path; the gateway only needs an address for it.
        CAMPAIGNS_SERVICE_URL: 'http://127.0.0.1:9',
        EVENTS_SERVICE_URL: events.url,
        AUTOMATION_SERVICE_URL: automation.url,
      }),
      silent('gateway'),
    );
    cleanups.push(() => gateway.stop());
    await Promise.all([contacts.broker.ready(), events.broker.ready()]);
    // Workflows are written as the automation service writes them: each trigger routed to it before
    // the commit (the automation child is killed and restarted; contacts' connection stays).
    const workflowWrites: WorkflowWrites = {
      pool: automationDb,
      renderer: new EmailRenderer(),
      routes: createTriggerRouting({ pool: automationDb, router: contacts.broker, logger: silent('workflow-writes') }),
    };

    async function anAccountWithKey() {
      const account = await createAccount(gateway.pool, {
        name: `Chaos ${randomBytes(3).toString('hex')}`,
        plan: 'pro',
      });
      const { plaintext } = await createApiKey(gateway.pool, {
        accountId: account.id,
        name: 'chaos',
        expiresOn: null,
        allowPast: false,
      });
      return { accountId: account.id, key: plaintext };
    }

    /** Messages left in every dead-letter queue of this namespace (read on the private broker). */
    async function deadLettered(): Promise<Record<string, number>> {
      const connection = await amqp.connect(rabbit.url);
      try {
        const channel = await connection.createChannel();
        const counts: Record<string, number> = {};
        for (const queue of Object.values(QUEUES)) {
          const name = `${env.BROKER_NAMESPACE ?? ''}${deadLetterQueueName(queue.name)}`;
          counts[name] = (await channel.checkQueue(name)).messageCount;
        }
        return counts;
      } finally {
        await connection.close();
      }
    }

    return {
      rabbit,
      smtp,
      automation,
      automationDb,
      workflowWrites,
      gateway,
      contacts,
      anAccountWithKey,
      deadLettered,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type ChaosStack = Awaited<ReturnType<typeof startChaosStack>>;
