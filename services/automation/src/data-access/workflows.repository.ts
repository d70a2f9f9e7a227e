import type { Pool, PoolClient } from '@mailer/shared';
import type { Workflow } from '../domain/workflows/workflow-schema';

export interface StoredWorkflow {
  id: number;
  account_id: number;
  name: string;
  transactional: boolean;
  definition: Workflow;
  updated_at: Date;
}

type Queryable = Pool | PoolClient;

const COLUMNS = 'id, account_id, name, transactional, definition, updated_at';

/** Inserts or replaces (same account and name) a workflow, keeping its id so dedupe survives re-import. */
export async function upsertWorkflow(client: Queryable, accountId: number, workflow: Workflow): Promise<{ id: number; replaced: boolean }> {
  const { rows } = await client.query<{ id: number; replaced: boolean }>(
    `INSERT INTO workflows (account_id, name, trigger_event, transactional, definition)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT ON CONSTRAINT workflows_account_name_key DO UPDATE
       SET trigger_event = EXCLUDED.trigger_event, transactional = EXCLUDED.transactional,
           definition = EXCLUDED.definition, updated_at = now()
     RETURNING id, (xmax <> 0) AS replaced`,
    [accountId, workflow.name, workflow.trigger.event, workflow.transactional, JSON.stringify(workflow)],
  );
  return rows[0]!;
}

export async function workflowsTriggeredBy(client: Queryable, accountId: number, event: string): Promise<StoredWorkflow[]> {
  const { rows } = await client.query<StoredWorkflow>({
    name: 'automation.workflows-triggered-by',
    text: `SELECT ${COLUMNS} FROM workflows WHERE account_id = $1 AND trigger_event = $2 ORDER BY id`,
    values: [accountId, event],
  });
  return rows;
}

export async function findWorkflow(client: Queryable, id: number): Promise<StoredWorkflow | undefined> {
  const { rows } = await client.query<StoredWorkflow>(`SELECT ${COLUMNS} FROM workflows WHERE id = $1`, [id]);
  return rows[0];
}

export async function listWorkflows(client: Queryable, accountId: number): Promise<StoredWorkflow[]> {
  const { rows } = await client.query<StoredWorkflow>(`SELECT ${COLUMNS} FROM workflows WHERE account_id = $1 ORDER BY name`, [accountId]);
  return rows;
}
