import type { Pool, PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

export interface WorkflowRun {
  id: number;
  event_id: string;
  event_name: string;
  event_properties: Record<string, unknown>;
}

export async function findRun(client: Queryable, id: number): Promise<WorkflowRun | undefined> {
  const { rows } = await client.query<WorkflowRun>(
    'SELECT id, event_id, event_name, event_properties FROM workflow_runs WHERE id = $1',
    [id],
  );
  return rows[0];
}
