import { findContact, type ProjectedContact } from '../../data-access/contacts.repository';
import type { OutgoingEmail } from '../../data-access/smtp-mailer';
import { findRun, type WorkflowRun } from '../../data-access/runs.repository';
import type { ClaimedSend } from '../../data-access/sends.repository';
import { findWorkflow, type StoredWorkflow } from '../../data-access/workflows.repository';
import { templateScope } from '../rendering/template-scope';
import { signUnsubscribeToken, unsubscribeUrl } from '../unsubscribe/unsubscribe-token';
import type { SendContext } from './send-context';

export type Prepared =
  | { kind: 'skip'; reason: string; workflow: StoredWorkflow | undefined; contact: ProjectedContact | undefined }
  | { kind: 'send'; email: OutgoingEmail; workflow: StoredWorkflow; contact: ProjectedContact };

/** What sending a step needs, when the caller already holds it (an enrolment sending at once). */
export interface LoadedSend {
  workflow: StoredWorkflow;
  contact: ProjectedContact | undefined;
  run: Pick<WorkflowRun, 'event_name' | 'event_properties'>;
}

/** A step claimed at enrolment, with the workflow, contact and event of that same transaction. */
export interface ImmediateSend {
  send: ClaimedSend;
  loaded: LoadedSend;
}

/** Why a contact must not get this step's email right now, if anything (checked right before sending). */
function suppression(contact: ProjectedContact | undefined, workflow: StoredWorkflow): string | undefined {
  if (!contact) return 'contact_unknown';
  if (contact.deleted) return 'contact_deleted';
  if (contact.bounced) return 'bounced';
  if (!contact.subscribed && !workflow.transactional) return 'unsubscribed';
  return undefined;
}

/** The current workflow, contact and run of a step claimed by the scheduler. */
async function load(ctx: SendContext, send: ClaimedSend) {
  const [workflow, contact, run] = await Promise.all([
    findWorkflow(ctx.pool, send.workflow_id),
    findContact(ctx.pool, send.account_id, send.contact_id),
    findRun(ctx.pool, send.run_id),
  ]);
  return { workflow, contact, run };
}

/**
 * Decides skip or renders the email (may throw RenderError). A step claimed at enrolment comes with
 * `loaded`, read in the transaction that committed a moment ago; anything else is read now.
 */
export async function prepareEmail(ctx: SendContext, send: ClaimedSend, loaded?: LoadedSend): Promise<Prepared> {
  const { workflow, contact, run } = loaded ?? (await load(ctx, send));
  const step = workflow?.definition.steps.find((candidate) => candidate.id === send.step_id);
  if (!workflow || !step || step.type !== 'email') return { kind: 'skip', reason: 'step_removed', workflow, contact };
  const suppressed = suppression(contact, workflow);
  if (suppressed || !contact) return { kind: 'skip', reason: suppressed ?? 'contact_unknown', workflow, contact };
  const link = unsubscribeUrl(ctx.publicBaseUrl, signUnsubscribeToken({ accountId: send.account_id, contactId: send.contact_id }, ctx.unsubscribeSecret));
  const scope = templateScope({
    contact,
    event: { name: run?.event_name ?? '', properties: run?.event_properties ?? {} },
    fallbacks: workflow.definition.fallbacks,
    unsubscribeUrl: link,
  });
  const rendered = await ctx.renderer.render(step, scope, link);
  return {
    kind: 'send',
    workflow,
    contact,
    email: {
      to: contact.email,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      messageId: send.message_id,
      headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    },
  };
}
