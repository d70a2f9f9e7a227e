import type { Pool, PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

export interface WorkflowRun {
  id: number;
  event_id: string;
  event_name: string;
  event_properties: Record<string, unknown>;
}

/** Enrols a contact in a workflow once; undefined when it was enrolled before. */
export async function enrol(
  client: Queryable,
  run: { accountId: number; contactId: number; workflowId: number; eventId: string; eventName: string; properties: Record<string, unknown> },
): Promise<number | undefined> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO workflow_runs (account_id, contact_id, workflow_id, event_id, event_name, event_properties)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT ON CONSTRAINT workflow_runs_once_key DO NOTHING
     RETURNING id`,
    [run.accountId, run.contactId, run.workflowId, run.eventId, run.eventName, JSON.stringify(run.properties)],
  );
  return rows[0]?.id;
}

export async function findRun(client: Queryable, id: number): Promise<WorkflowRun | undefined> {
  const { rows } = await client.query<WorkflowRun>(
    'SELECT id, event_id, event_name, event_properties FROM workflow_runs WHERE id = $1',
    [id],
  );
  return rows[0];
}
