import { counterOf, gaugeOf, histogramOf, METRICS, type Pool, type Registry } from '@mailer/shared';
import { oldestPendingAgeSeconds } from '../../data-access/outbox.repository';
import { SmtpFailure, type OutgoingEmail } from '../../data-access/smtp-mailer';
import type { Finish } from '../../domain/sending/finish';

interface Mailer {
  send(email: OutgoingEmail): Promise<string>;
}

/** The mailer, with each SMTP round trip timed by outcome (accepted, transient, permanent). */
export function timedMailer(mailer: Mailer, registry: Registry): Mailer {
  const duration = histogramOf(registry, METRICS.smtpSendDuration);
  return {
    async send(email) {
      const stop = duration.startTimer();
      try {
        const response = await mailer.send(email);
        stop({ outcome: 'accepted' });
        return response;
      } catch (error) {
        stop({ outcome: error instanceof SmtpFailure && error.kind === 'transient' ? 'transient' : 'permanent' });
        throw error;
      }
    },
  };
}

/** Why a step failed, as a label: the ledger keeps the full reason. */
function failureReason(finish: Finish): string {
  const reason = finish.outcome.reason ?? '';
  if (finish.outcome.state === 'failed_transient') return 'transient';
  if (finish.bounce) return 'bounced';
  if (reason.startsWith('render_failed')) return 'render';
  if (reason.startsWith('retries_exhausted')) return 'attempts_exhausted';
  return 'permanent';
}

/** Counts each recorded step outcome: sent, skipped by reason, failed by reason. */
export function sendOutcomeMetrics(registry: Registry): (finish: Finish) => void {
  const sent = counterOf(registry, METRICS.emailsSent);
  const skipped = counterOf(registry, METRICS.emailsSkipped);
  const failed = counterOf(registry, METRICS.emailsFailed);
  return (finish) => {
    const { state, reason } = finish.outcome;
    if (state === 'sent') sent.inc();
    else if (state === 'skipped') skipped.inc({ reason: reason ?? 'unknown' });
    else failed.inc({ reason: failureReason(finish) });
  };
}

/** The outbox lag gauge, read from the table at each scrape. */
export function outboxLagGauge(registry: Registry, pool: Pool): void {
  gaugeOf(registry, METRICS.outboxPending, async (gauge) => {
    gauge.set(await oldestPendingAgeSeconds(pool));
  });
}
