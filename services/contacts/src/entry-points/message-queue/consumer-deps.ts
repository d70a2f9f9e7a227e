import type { Broker, ConsumeOutcome, Pool } from '@mailer/shared';

export interface ConsumerDeps {
  pool: Pool;
  /** Publishes the enriched product event after its transaction commits. */
  broker: Broker;
  /** Observes each message's fate (metrics, tests). */
  onOutcome?: ((queue: string, outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined;
}
