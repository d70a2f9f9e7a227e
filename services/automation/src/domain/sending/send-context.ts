import type { Logger } from 'pino';
import type { GroupCommit, Pool } from '@mailer/shared';
import type { TracedSendOutcomeRecord } from '../../data-access/send-outcome.repository';
import type { SmtpMailer } from '../../data-access/smtp-mailer';
import type { EmailRenderer } from '../rendering/render-email';
import type { TrackingSettingsCache } from '../tracking/tracking-settings-cache';
import type { Finish } from './finish';

/** Writes workflow outcomes, many to a statement (finish-send); one per process, in its SendContext. */
export type SendOutcomeWriter = GroupCommit<TracedSendOutcomeRecord, boolean>;

/** What sending a step needs, built once by the composition root. */
export interface SendContext {
  pool: Pool;
  outcomes: SendOutcomeWriter;
  mailer: Pick<SmtpMailer, 'send'>;
  renderer: EmailRenderer;
  logger: Logger;
  mailDomain: string;
  publicBaseUrl: string;
  unsubscribeSecret: string;
  /** Link and open tracking of workflow and campaign emails: each account's settings, the token secret. */
  tracking: { settings: TrackingSettingsCache; secret: string };
  maxAttempts: number;
  retryInitialMs: number;
  retryMaxMs: number;
  /** Sees each outcome once it is recorded in the ledger (metrics). */
  onFinished?: (finish: Finish) => void;
}
