import type { Logger } from 'pino';
import type { z } from 'zod';
import { trackingSecret, type Pool, type Registry } from '@mailer/shared';
import type { sendingEnv } from './config';
import { SmtpMailer } from './data-access/smtp-mailer';
import { RENDER_LIMITS } from './domain/rendering/liquid-engine';
import { EmailRenderer } from './domain/rendering/render-email';
import { sendOutcomeWriter } from './domain/sending/finish-send';
import type { SendContext } from './domain/sending/send-context';
import { TrackingSettingsCache } from './domain/tracking/tracking-settings-cache';
import { unsubscribeSecret } from './domain/unsubscribe/unsubscribe-token';
import { sendOutcomeMetrics, timedMailer } from './entry-points/metrics/automation-metrics';
import { parseMailFrom, senderDomain } from './mail-from';

/** The sending settings as loaded (`sendingEnv`), with the secret unsubscribe links fall back to. */
export type SendingConfig = z.output<z.ZodObject<typeof sendingEnv>> & { INTERNAL_SIGNING_SECRET: string };

export interface Sending {
  ctx: SendContext;
  mailer: SmtpMailer;
}

/**
 * What sending workflow emails needs, built from the settings: the SMTP pool (its round trips
 * timed), the renderer, the outcome writer on automation's database and the outcome counters, in
 * `metrics`. The caller closes the mailer.
 */
export function startSending(
  config: SendingConfig,
  deps: { pool: Pool; logger: Logger; metrics: Registry },
): Sending {
  const { pool, logger, metrics } = deps;
  const from = parseMailFrom(config.MAIL_FROM);
  const mailer = new SmtpMailer({
    url: config.SMTP_URL,
    from,
    poolSize: config.SMTP_POOL_SIZE,
    ratePerSecond: config.SEND_RATE_PER_SECOND,
    timeoutMs: config.SMTP_TIMEOUT_MS,
  });
  const ctx: SendContext = {
    pool,
    outcomes: sendOutcomeWriter(pool),
    mailer: timedMailer(mailer, metrics),
    renderer: new EmailRenderer({ ...RENDER_LIMITS, renderMs: config.RENDER_TIMEOUT_MS }),
    logger,
    mailDomain: senderDomain(from),
    publicBaseUrl: config.PUBLIC_BASE_URL,
    unsubscribeSecret: unsubscribeSecret(config.UNSUBSCRIBE_SECRET, config.INTERNAL_SIGNING_SECRET),
    tracking: { settings: new TrackingSettingsCache(pool), secret: trackingSecret(config.TRACKING_SECRET, config.INTERNAL_SIGNING_SECRET) },
    maxAttempts: config.SEND_MAX_ATTEMPTS,
    retryInitialMs: config.SEND_RETRY_INITIAL_MS,
    retryMaxMs: config.SEND_RETRY_MAX_MS,
    onFinished: sendOutcomeMetrics(metrics),
  };
  return { ctx, mailer };
}
