import type { ConsumeOutcome, Pool } from '@mailer/shared';

export interface ConsumerDeps {
  pool: Pool;
  /** Observes each message's fate (metrics, tests). */
  onOutcome?: ((queue: string, outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined;
}
