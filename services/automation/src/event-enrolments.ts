import type { Logger } from 'pino';
import { createPool, notMigratedAsNotReady, SERVICE_ATTRIBUTE, withSpan, type Pool } from '@mailer/shared';
import { enrolIfTriggered, type EnrichedEvent, type EnrolmentOptions } from './domain/enrolment/handle-product-event';
import { TriggeredWorkflowsCache } from './domain/enrolment/triggered-workflows-cache';
import { parseMailFrom, senderDomain } from './mail-from';

/** Where automation's database is (automation creates and migrates it); the host of the enrolments connects to it. */
export { automationDatabaseUrl } from './database';
export type { EnrichedEvent };

export interface EventEnrolmentsOptions {
  /** Automation's own database (the one its migrations write). */
  databaseUrl: string;
  /** Connections this process may hold to it. */
  poolSize: number;
  logger: Logger;
  /** Automation's MAIL_FROM: its domain ends the first email's Message-ID, written at enrolment. */
  mailFrom: string;
}

/**
 * Automation's enrolment of the product events, for the gateway to run in its own process before
 * its 202 (docs/decisions.md, "Session 42"): the enriched event enrols its contact with automation's
 * code, statement and inbox key on automation's database, with no broker message between the
 * contact's commit and the enrolment. A first email due now is left pending, and the statement
 * wakes every automation instance (`NOTIFY automation_sends_due`), whose scheduler claims and sends
 * it. Automation keeps owning and migrating its tables; before it has made its database, an
 * enrolment fails as a dependency not ready (the request is a 503).
 */
export class EventEnrolments {
  private readonly options: EnrolmentOptions;

  private constructor(
    private readonly pool: Pool,
    mailDomain: string,
  ) {
    // No instance claims here (so no lease): the statement leaves the first step pending and notifies the schedulers.
    this.options = { mailDomain, claimNow: () => undefined, leaseMs: 0, workflows: new TriggeredWorkflowsCache(pool) };
  }

  static connect(options: EventEnrolmentsOptions): EventEnrolments {
    return new EventEnrolments(createPool(options.databaseUrl, options.logger, { max: options.poolSize }), senderDomain(parseMailFrom(options.mailFrom)));
  }

  /**
   * Enrols the event's contact in the workflows it triggers; resolves once committed (at once when
   * none does). In a span of its own, which the first email's send continues (its ledger row keeps
   * the trace context), so one event is still one trace from the request to the SMTP send.
   */
  enrol(event: EnrichedEvent): Promise<void> {
    const attributes = { [SERVICE_ATTRIBUTE]: 'gateway', 'mailer.account_id': event.account_id, 'mailer.event_id': event.event_id };
    return withSpan('enrol product event', attributes, async () => {
      try {
        await enrolIfTriggered(this.pool, event, this.options);
      } catch (error) {
        throw notMigratedAsNotReady(error, 'automation');
      }
    });
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
