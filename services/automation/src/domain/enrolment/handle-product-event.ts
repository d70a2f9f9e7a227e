import type { MessageOf, Pool, productEventEnrichedV1 } from '@mailer/shared';
import { enrolFromEvent, type MatchedWorkflow } from '../../data-access/enrolment.repository';
import type { StoredWorkflow, TriggeredWorkflows } from '../../data-access/workflows.repository';
import type { ImmediateSend } from '../sending/prepare-email';
import { stepMessageId } from '../sending/message-id';
import { whyNotEnrol } from '../sending/suppression-check';
import { describeCondition, firstFailedCondition } from '../workflows/match-conditions';
import { nextStep } from './next-step';
import type { TriggeredWorkflowsCache } from './triggered-workflows-cache';

export type EnrichedEvent = MessageOf<typeof productEventEnrichedV1>;

export interface EnrolmentOptions {
  mailDomain: string;
  /**
   * Asked once per matched workflow whose first email is due now: the scheduler instance that
   * will send it right after commit, or undefined to leave the row for the scheduler's claim loop.
   */
  claimNow: () => string | undefined;
  leaseMs: number;
  workflows: TriggeredWorkflowsCache;
}

/** Enrolments retried against workflows changed meanwhile before the message is left for redelivery. */
const MAX_STALE_ATTEMPTS = 3;

export interface EnrolmentOutcome {
  enrolled: number;
  /** First steps claimed in the same statement, with what sending them needs (nothing is read again). */
  immediate: ImmediateSend[];
}

/** The matched workflow's row: its first email step and whether this instance sends it at once. */
function matchedWorkflow(workflow: StoredWorkflow, event: EnrichedEvent, options: EnrolmentOptions): MatchedWorkflow {
  // Always an email: a branch asks about an email before it (workflow-schema).
  const first = nextStep(workflow.definition, -1);
  if (!first) return { workflowId: workflow.id };
  const ids = { accountId: event.account_id, contactId: event.contact.id, workflowId: workflow.id, stepId: first.stepId };
  return {
    workflowId: workflow.id,
    firstStep: { stepId: first.stepId, stepIndex: first.stepIndex, delayMs: first.delayMs, messageId: stepMessageId(ids, options.mailDomain) },
    claimFor: first.delayMs === 0 ? options.claimNow() : undefined,
  };
}

/**
 * One product event (with the contact the contacts service upserted): match the account's
 * workflows (as cached, checked by the statement itself), then in one atomic statement keyed by the inbox row (a redelivery is a no-op) refresh
 * the projection, enrol the contact at most once per workflow, write each first email step's ledger
 * row and log every decision. A first step due now may be claimed by the same statement, so the
 * caller sends it at once.
 */
export async function handleProductEvent(pool: Pool, messageId: string, event: EnrichedEvent, options: EnrolmentOptions): Promise<EnrolmentOutcome> {
  let triggered = await options.workflows.get(event.account_id, event.event);
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await enrolAgainst(pool, messageId, event, options, triggered);
    if (outcome) return outcome;
    // The workflows changed after they were read: nothing was written; match them as they are now.
    if (attempt === MAX_STALE_ATTEMPTS) throw new Error(`the workflows of event "${event.event}" kept changing during its enrolment`);
    triggered = await options.workflows.refresh(event.account_id, event.event);
  }
}

/** One attempt: undefined when the workflows matched against are no longer the account's. */
async function enrolAgainst(
  pool: Pool,
  messageId: string,
  event: EnrichedEvent,
  options: EnrolmentOptions,
  triggered: TriggeredWorkflows,
): Promise<EnrolmentOutcome | undefined> {
  const matched: Array<{ workflow: StoredWorkflow; row: MatchedWorkflow }> = [];
  const notMatched: Array<{ workflowId: number; reason: string }> = [];
  const notNow = whyNotEnrol(event.contact);
  for (const workflow of triggered.workflows) {
    const failed = firstFailedCondition(workflow.definition.trigger.where, event.properties);
    if (notNow) notMatched.push({ workflowId: workflow.id, reason: notNow });
    else if (failed) notMatched.push({ workflowId: workflow.id, reason: `condition not met: ${describeCondition(failed)}` });
    else matched.push({ workflow, row: matchedWorkflow(workflow, event, options) });
  }
  const result = await enrolFromEvent(pool, {
    messageId,
    accountId: event.account_id,
    contact: event.contact,
    factAt: event.received_at,
    eventId: event.event_id,
    eventName: event.event,
    properties: event.properties,
    matched: matched.map((entry) => entry.row),
    notMatched,
    workflowsFingerprint: triggered.fingerprint,
    leaseMs: options.leaseMs,
  });
  if (result.stale) return undefined;
  const byId = new Map(matched.map((entry) => [entry.workflow.id, entry.workflow]));
  const run = { event_name: event.event, event_properties: event.properties };
  const immediate: ImmediateSend[] = [];
  for (const send of result.claimed) {
    const workflow = byId.get(send.workflow_id);
    if (workflow) immediate.push({ send, loaded: { workflow, contact: result.contact, run } });
  }
  return { enrolled: result.enrolled.length, immediate };
}
