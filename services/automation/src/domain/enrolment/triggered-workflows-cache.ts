import { GroupCommit, type Pool } from '@mailer/shared';
import { triggerKey, workflowsTriggeredByEach, type Trigger, type TriggeredWorkflows } from '../../data-access/workflows.repository';

const CAPACITY = 10_000;

/**
 * The workflows each (account, event name) triggers, kept between events instead of read before
 * each one (a round trip per sign-up). Never trusted blindly: the enrolment statement compares the
 * fingerprint it was matched against with the workflows as they stand and writes nothing when they
 * differ, and the caller then `refresh`es and enrols again. So a workflow saved, disabled or edited
 * by any writer (another instance, plain SQL) is seen by the next event exactly as before.
 */
export class TriggeredWorkflowsCache {
  private readonly entries = new Map<string, TriggeredWorkflows>();
  /**
   * The reads asked for while one is in flight go together into the next statement, which starts
   * after each of them was asked (never an answer older than the question): a burst of events of
   * triggers not cached yet costs a few statements, not one each.
   */
  private readonly reads: GroupCommit<Trigger, TriggeredWorkflows>;

  constructor(pool: Pool) {
    this.reads = new GroupCommit((triggers) => workflowsTriggeredByEach(pool, triggers), 256);
  }

  async get(accountId: number, event: string): Promise<TriggeredWorkflows> {
    return this.entries.get(keyOf(accountId, event)) ?? this.refresh(accountId, event);
  }

  async refresh(accountId: number, event: string): Promise<TriggeredWorkflows> {
    const key = keyOf(accountId, event);
    const fresh = await this.reads.add({ accountId, event });
    this.entries.delete(key);
    this.entries.set(key, fresh);
    // Least recently loaded first out: Map keeps insertion order.
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
    return fresh;
  }
}

const keyOf = (accountId: number, event: string) => triggerKey({ accountId, event });
