import type { ProjectedContact } from '../../data-access/contacts.repository';
import type { OutgoingEmail } from '../../data-access/smtp-mailer';
import type { WorkflowRun } from '../../data-access/runs.repository';
import type { ClaimedSend, ClaimedSendWithContext } from '../../data-access/sends.repository';
import type { StoredWorkflow } from '../../data-access/workflows.repository';
import { templateScope } from '../rendering/template-scope';
import { CONFIRMATION_WORKFLOW } from '../confirmation/confirmation-workflow';
import { trackHtml } from '../tracking/track-links';
import { signUnsubscribeToken, unsubscribeUrl } from '../unsubscribe/unsubscribe-token';
import type { SendContext } from './send-context';
import { whyNotSend } from './suppression-check';
import type { WorkflowCache } from './workflow-cache';

const UNTRACKED = { link_tracking: false, open_tracking: false };

export type Prepared =
  | { kind: 'skip'; reason: string; workflow: StoredWorkflow | undefined; contact: ProjectedContact | undefined }
  | { kind: 'send'; email: OutgoingEmail; workflow: StoredWorkflow; contact: ProjectedContact };

/** What sending a step needs, when the caller already holds it (an enrolment sending at once). */
export interface LoadedSend {
  workflow: StoredWorkflow | undefined;
  contact: ProjectedContact | undefined;
  run: Pick<WorkflowRun, 'event_name' | 'event_properties'> | undefined;
}

/** A step claimed at enrolment, with the workflow, contact and event of that same transaction. */
export interface ImmediateSend {
  send: ClaimedSend;
  loaded: LoadedSend & { workflow: StoredWorkflow };
}

/** What the claim read with each row, and the workflow at the version it names. */
export async function loadedFromClaim(workflows: WorkflowCache, claimed: ClaimedSendWithContext): Promise<LoadedSend> {
  return {
    workflow: await workflows.get(claimed.workflow_id, claimed.workflow_updated_at),
    contact: claimed.contact ?? undefined,
    run: claimed.event_name === null ? undefined : { event_name: claimed.event_name, event_properties: claimed.event_properties ?? {} },
  };
}

/**
 * Decides skip or renders the email (may throw RenderError), from what the claim read: by the
 * enrolment's transaction a moment ago, or by the scheduler's claim statement.
 */
export async function prepareEmail(ctx: SendContext, send: ClaimedSend, loaded: LoadedSend): Promise<Prepared> {
  const { workflow, contact, run } = loaded;
  const step = workflow?.definition.steps.find((candidate) => candidate.id === send.step_id);
  if (!workflow || !step || step.type !== 'email') return { kind: 'skip', reason: 'step removed', workflow, contact };
  const skip = whyNotSend(contact, { transactional: workflow.transactional });
  if (skip || !contact) return { kind: 'skip', reason: skip ?? 'contact unknown', workflow, contact };
  const target = { accountId: send.account_id, contactId: send.contact_id, workflowId: send.workflow_id, stepId: send.step_id };
  // The link names the step, so an unsubscribe through it counts in the step's figures.
  const link = unsubscribeUrl(ctx.publicBaseUrl, signUnsubscribeToken(target, ctx.unsubscribeSecret));
  const scope = templateScope({
    contact,
    event: { name: run?.event_name ?? '', properties: run?.event_properties ?? {} },
    fallbacks: workflow.definition.fallbacks,
    unsubscribeUrl: link,
  });
  const rendered = await ctx.renderer.render(step, scope, link);
  // The double opt-in email is consent, not marketing: its confirm link stays a link of ours, untracked.
  const settings = workflow.name === CONFIRMATION_WORKFLOW ? UNTRACKED : await ctx.tracking.settings.get(send.account_id);
  const tracking = { publicBaseUrl: ctx.publicBaseUrl, secret: ctx.tracking.secret, settings };
  // The text part was made from the untracked HTML: it keeps the original addresses.
  const html = rendered.html === undefined ? undefined : trackHtml(rendered.html, { ...target, sentAt: Math.floor(Date.now() / 1000) }, tracking);
  return {
    kind: 'send',
    workflow,
    contact,
    email: {
      to: contact.email,
      subject: rendered.subject,
      html,
      text: rendered.text,
      messageId: send.message_id,
      headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    },
  };
}
