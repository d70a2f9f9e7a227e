import type { LogOutcome } from '../../data-access/delivery-log.repository';
import type { SendOutcome } from '../../data-access/sends.repository';
import type { StoredWorkflow } from '../../data-access/workflows.repository';

/** How one attempt at a step ended: what finish-send records, the log and the metrics see. */
export interface Finish {
  outcome: SendOutcome;
  log: LogOutcome;
  workflow: StoredWorkflow | undefined;
  email?: string | undefined;
  /** The subject as rendered for the contact, once the email was rendered (kept on the ledger row). */
  subject?: string | undefined;
  /** Set on a 5xx at RCPT: the contact is bounced here and the contacts service is told. */
  bounce?: boolean;
  /** The SMTP reply code of a refusal, when the server gave one. */
  smtpCode?: number | undefined;
}
