import type { Logger } from 'pino';
import { createPool, notMigratedAsNotReady, SERVICE_ATTRIBUTE, withSpan, type Pool, type Registry } from '@mailer/shared';
import { notifySendsDue } from './data-access/enrolment.repository';
import { enrolIfTriggered, type EnrichedEvent, type EnrolmentOptions } from './domain/enrolment/handle-product-event';
import { TriggeredWorkflowsCache } from './domain/enrolment/triggered-workflows-cache';
import { parseMailFrom, senderDomain } from './mail-from';
import { startSending, type SendingConfig } from './sending';
import { sendConcurrencyOf } from './config';
import { SendLauncher } from './entry-points/workers/send-launcher';
import type { SmtpMailer } from './data-access/smtp-mailer';

/** Where automation's database is (automation creates and migrates it); the host of the enrolments connects to it. */
export { automationDatabaseUrl } from './database';
export { sendingEnv } from './config';
export type { EnrichedEvent, SendingConfig };

export interface EventEnrolmentsOptions {
  /** Automation's own database (the one its migrations write). */
  databaseUrl: string;
  /** Connections this process may hold to it. */
  poolSize: number;
  logger: Logger;
  /** Automation's MAIL_FROM: its domain ends the first email's Message-ID, written at enrolment. */
  mailFrom: string;
  /**
   * Given: a first email due now is claimed by the enrolment's statement and sent from this
   * process, with automation's sending code and these settings (automation's own); its outcome
   * counters go to `metrics`. Absent: it is left pending for automation's schedulers.
   */
  firstEmails?: { sending: SendingConfig; metrics: Registry } | undefined;
}

/** The first emails sent where the enrolment ran: the sends in flight, and the SMTP pool they share. */
interface FirstEmailSender {
  launcher: SendLauncher;
  mailer: SmtpMailer;
}

/**
 * Automation's enrolment of the product events, for the gateway to run in its own process before
 * its 202 (docs/decisions.md, "Session 42"): the enriched event enrols its contact with automation's
 * code, statement and inbox key on automation's database, with no broker message between the
 * contact's commit and the enrolment.
 *
 * A first email due now is sent from here too (docs/decisions.md, "Session 45"): the enrolment's
 * statement claims it for this process under a lease, as it does for an automation instance, and
 * once committed this process renders, sends and records it with automation's code. So no process
 * is woken between the event and its email. When this process has no room, or sends no first
 * emails (`firstEmails` absent), the statement leaves it pending and wakes every automation
 * instance (`NOTIFY automation_sends_due`), whose scheduler claims and sends it. A process that
 * dies holding a claim loses nothing: the lease expires and a scheduler sends it.
 *
 * Automation keeps owning and migrating its tables; before it has made its database, an
 * enrolment fails as a dependency not ready (the request is a 503).
 */
export class EventEnrolments {
  private readonly options: EnrolmentOptions;

  private constructor(
    private readonly pool: Pool,
    mailDomain: string,
    private readonly sender: FirstEmailSender | undefined,
  ) {
    // Without a sender nothing claims here (so no lease): the statement leaves the first step pending and notifies the schedulers.
    this.options = {
      mailDomain,
      claimNow: () => sender?.launcher.claimNow(),
      leaseMs: sender?.launcher.leaseMs ?? 0,
      workflows: new TriggeredWorkflowsCache(pool),
    };
  }

  static connect(options: EventEnrolmentsOptions): EventEnrolments {
    const pool = createPool(options.databaseUrl, options.logger, { max: options.poolSize });
    return new EventEnrolments(pool, senderDomain(parseMailFrom(options.mailFrom)), firstEmailSender(pool, options));
  }

  /**
   * Enrols the event's contact in the workflows it triggers; resolves once committed (at once when
   * none does), the first emails claimed here then on their way. In a span of its own, which the
   * first email's send continues (its ledger row keeps the trace context), so one event is still
   * one trace from the request to the SMTP send.
   */
  enrol(event: EnrichedEvent): Promise<void> {
    const attributes = { [SERVICE_ATTRIBUTE]: 'gateway', 'mailer.account_id': event.account_id, 'mailer.event_id': event.event_id };
    return withSpan('enrol product event', attributes, async () => {
      try {
        const outcome = await enrolIfTriggered(this.pool, event, this.options);
        if (outcome) this.sender?.launcher.sendNow(outcome.immediate);
      } catch (error) {
        throw notMigratedAsNotReady(error, 'automation');
      }
    });
  }

  /** Takes no new first email, lets those in flight finish and record their outcomes, then disconnects. */
  async close(): Promise<void> {
    if (this.sender) {
      await this.sender.launcher.stop();
      this.sender.mailer.close();
    }
    await this.pool.end();
  }
}

function firstEmailSender(pool: Pool, options: EventEnrolmentsOptions): FirstEmailSender | undefined {
  if (!options.firstEmails) return undefined;
  const { sending, metrics } = options.firstEmails;
  const { ctx, mailer } = startSending('gateway', sending, { pool, logger: options.logger, metrics });
  const launcher = new SendLauncher(ctx, {
    concurrency: sendConcurrencyOf(sending),
    leaseMs: sending.SEND_LEASE_MS,
    // The run's next step is due at once: this process has no scheduler, automation's claims it.
    onNextDueNow: () => {
      notifySendsDue(pool).catch((error: unknown) =>
        options.logger.warn({ err: error }, "could not wake automation's schedulers; they find the due step at their next poll"),
      );
    },
  });
  return { launcher, mailer };
}
