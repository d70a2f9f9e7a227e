import type { Pool } from '@mailer/shared';
import { findWorkflow, type StoredWorkflow } from '../../data-access/workflows.repository';

const CAPACITY = 1000;

/**
 * Parsed workflows by id, checked against the version each claim reads (`updated_at`), so a
 * re-import is picked up by the very next claim and an unchanged workflow is never read again.
 */
export class WorkflowCache {
  private readonly byId = new Map<number, StoredWorkflow>();

  constructor(private readonly pool: Pool) {}

  async get(id: number, version: Date | null): Promise<StoredWorkflow | undefined> {
    // No version: the workflow was deleted after the row was written.
    if (version === null) return undefined;
    const cached = this.byId.get(id);
    if (cached && cached.updated_at.getTime() === version.getTime()) return cached;
    const fresh = await findWorkflow(this.pool, id);
    this.byId.delete(id);
    if (fresh) this.byId.set(id, fresh);
    // Least recently loaded first out: Map keeps insertion order.
    if (this.byId.size > CAPACITY) this.byId.delete(this.byId.keys().next().value!);
    return fresh;
  }
}
