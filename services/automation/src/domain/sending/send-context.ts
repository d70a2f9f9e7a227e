import type { Logger } from 'pino';
import type { Pool } from '@mailer/shared';
import type { SmtpMailer } from '../../data-access/smtp-mailer';
import type { EmailRenderer } from '../rendering/render-email';
import type { Finish, SendOutcomeWriter } from './finish-send';

/** What sending a step needs, built once by the composition root. */
export interface SendContext {
  pool: Pool;
  /** Workflow outcomes, many to a statement (finish-send). */
  outcomes: SendOutcomeWriter;
  mailer: Pick<SmtpMailer, 'send'>;
  renderer: EmailRenderer;
  logger: Logger;
  mailDomain: string;
  publicBaseUrl: string;
  unsubscribeSecret: string;
  maxAttempts: number;
  retryInitialMs: number;
  retryMaxMs: number;
  /** Sees each outcome once it is recorded in the ledger (metrics). */
  onFinished?: (finish: Finish) => void;
}
