import type { Pool, PoolClient } from '@mailer/shared';
import type { Workflow } from '../domain/workflows/workflow-schema';

export interface StoredWorkflow {
  id: number;
  account_id: number;
  name: string;
  transactional: boolean;
  /** A disabled workflow enrols no one (runs already started go on). */
  enabled: boolean;
  definition: Workflow;
  updated_at: Date;
}

type Queryable = Pool | PoolClient;

const COLUMNS = 'id, account_id, name, transactional, enabled, definition, updated_at';

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

/** The enabled workflows one (account, event name) triggers, and the version of that set. */
export interface TriggeredWorkflows {
  workflows: StoredWorkflow[];
  /**
   * One `id:xmin` per workflow, by id. Any change to the set (a row inserted, updated in any way
   * by any writer, plain SQL included, disabled, deleted or moved to another trigger) changes it:
   * an update always gives the row a new xmin.
   */
  fingerprint: string[];
}

/** One workflow row's entry in a fingerprint: its id and the transaction that last wrote it (`table`: the row's alias). */
const rowVersion = (table = 'workflows') => `${table}.id::text || ':' || ${table}.xmin::text`;

/**
 * The fingerprint of the set as a statement sees it, with `$account` and `$event` as its parameter
 * references: the enrolment compares it with the one its caller matched against.
 */
export const triggeredFingerprintSql = (account: string, event: string) =>
  `(SELECT coalesce(array_agg(${rowVersion()} ORDER BY id), '{}')
      FROM workflows WHERE account_id = ${account} AND trigger_event = ${event} AND enabled)`;

/** One (account, event name) a product event triggers on. */
export interface Trigger {
  accountId: number;
  event: string;
}

/** A trigger as one string. NUL cannot occur in an event name (refused at the door), so it is unambiguous. */
export const triggerKey = ({ accountId, event }: Trigger) => `${accountId}\u0000${event}`;

/**
 * The enabled workflows each trigger starts, with the version of each set, in one statement for
 * several triggers (the answers in the triggers' order; a trigger asked twice is read once): the
 * reads of the events handled at the same moment share one round trip.
 */
export async function workflowsTriggeredByEach(client: Queryable, triggers: readonly Trigger[]): Promise<TriggeredWorkflows[]> {
  const distinct = [...new Map(triggers.map((trigger) => [triggerKey(trigger), trigger])).values()];
  const { rows } = await client.query<StoredWorkflow & { position: number; version: string }>({
    name: 'automation.workflows-triggered-by-each',
    text: `SELECT t.position::int AS position, w.id, w.account_id, w.name, w.transactional, w.enabled, w.definition, w.updated_at,
                  ${rowVersion('w')} AS version
             FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS t(account_id, trigger_event, position)
             JOIN workflows w ON w.account_id = t.account_id AND w.trigger_event = t.trigger_event AND w.enabled
            ORDER BY t.position, w.id`,
    values: [distinct.map((trigger) => trigger.accountId), distinct.map((trigger) => trigger.event)],
  });
  const byKey = new Map<string, TriggeredWorkflows>(distinct.map((trigger) => [triggerKey(trigger), { workflows: [], fingerprint: [] }]));
  for (const { position, version, ...workflow } of rows) {
    const found = byKey.get(triggerKey(distinct[position - 1]!))!;
    found.workflows.push(workflow);
    found.fingerprint.push(version);
  }
  return triggers.map((trigger) => byKey.get(triggerKey(trigger))!);
}

export async function findWorkflow(client: Queryable, id: number): Promise<StoredWorkflow | undefined> {
  const { rows } = await client.query<StoredWorkflow>(`SELECT ${COLUMNS} FROM workflows WHERE id = $1`, [id]);
  return rows[0];
}

export async function listWorkflows(client: Queryable, accountId: number): Promise<StoredWorkflow[]> {
  const { rows } = await client.query<StoredWorkflow>(`SELECT ${COLUMNS} FROM workflows WHERE account_id = $1 ORDER BY name`, [accountId]);
  return rows;
}

/** One of the account's workflows (another account's id is simply not found). */
export async function findAccountWorkflow(client: Queryable, accountId: number, id: number): Promise<StoredWorkflow | undefined> {
  const { rows } = await client.query<StoredWorkflow>(`SELECT ${COLUMNS} FROM workflows WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return rows[0];
}

/** Inserts a new workflow; undefined when the account already has one of that name. */
export async function insertWorkflow(client: Queryable, accountId: number, workflow: Workflow): Promise<number | undefined> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO workflows (account_id, name, trigger_event, transactional, definition)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT ON CONSTRAINT workflows_account_name_key DO NOTHING
     RETURNING id`,
    [accountId, workflow.name, workflow.trigger.event, workflow.transactional, JSON.stringify(workflow)],
  );
  return rows[0]?.id;
}

/**
 * Replaces one workflow's definition by id (a rename included; the id, and so what was already
 * sent, is kept). 'missing' for no such workflow, 'name_taken' when another one has the new name;
 * replaced, whether it is 'enabled' or 'disabled' (a disabled one's trigger needs no route).
 */
export async function replaceWorkflow(
  client: Queryable,
  accountId: number,
  id: number,
  workflow: Workflow,
): Promise<'enabled' | 'disabled' | 'missing' | 'name_taken'> {
  const taken = await client.query(`SELECT 1 FROM workflows WHERE account_id = $1 AND name = $2 AND id <> $3`, [accountId, workflow.name, id]);
  if (taken.rowCount) return 'name_taken';
  const { rows } = await client.query<{ enabled: boolean }>(
    `UPDATE workflows SET name = $3, trigger_event = $4, transactional = $5, definition = $6, updated_at = now()
      WHERE account_id = $1 AND id = $2 RETURNING enabled`,
    [accountId, id, workflow.name, workflow.trigger.event, workflow.transactional, JSON.stringify(workflow)],
  );
  if (!rows[0]) return 'missing';
  return rows[0].enabled ? 'enabled' : 'disabled';
}

/** Enables or disables one workflow; its trigger's event name, or undefined for no such workflow. */
export async function setWorkflowEnabled(client: Queryable, accountId: number, id: number, enabled: boolean): Promise<string | undefined> {
  const { rows } = await client.query<{ trigger_event: string }>(
    `UPDATE workflows SET enabled = $3 WHERE account_id = $1 AND id = $2 RETURNING trigger_event`,
    [accountId, id, enabled],
  );
  return rows[0]?.trigger_event;
}

export interface WorkflowSummary {
  id: number;
  name: string;
  trigger_event: string;
  enabled: boolean;
  steps: number;
  sent_last_7_days: number;
  updated_at: Date;
}

/** The account's workflows by name, each with its emails sent in the last 7 days. */
export async function listWorkflowSummaries(client: Queryable, accountId: number): Promise<WorkflowSummary[]> {
  const { rows } = await client.query<WorkflowSummary>(
    `SELECT w.id, w.name, w.trigger_event, w.enabled, jsonb_array_length(w.definition->'steps') AS steps, w.updated_at,
            (SELECT count(*)::int FROM sends s
              WHERE s.workflow_id = w.id AND s.state = 'sent' AND s.sent_at > now() - interval '7 days') AS sent_last_7_days
       FROM workflows w WHERE w.account_id = $1 ORDER BY w.name`,
    [accountId],
  );
  return rows;
}
