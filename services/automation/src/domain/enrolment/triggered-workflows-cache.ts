import type { Pool } from '@mailer/shared';
import { workflowsTriggeredBy, type TriggeredWorkflows } from '../../data-access/workflows.repository';

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

  constructor(private readonly pool: Pool) {}

  async get(accountId: number, event: string): Promise<TriggeredWorkflows> {
    return this.entries.get(keyOf(accountId, event)) ?? this.refresh(accountId, event);
  }

  async refresh(accountId: number, event: string): Promise<TriggeredWorkflows> {
    const key = keyOf(accountId, event);
    const fresh = await workflowsTriggeredBy(this.pool, accountId, event);
    this.entries.delete(key);
    this.entries.set(key, fresh);
    // Least recently loaded first out: Map keeps insertion order.
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
    return fresh;
  }
}

// NUL cannot occur in an event name (refused at the door), so the key is unambiguous.
const keyOf = (accountId: number, event: string) => `${accountId}\u0000${event}`;
