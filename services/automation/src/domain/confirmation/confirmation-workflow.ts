import type { Pool, PoolClient } from '@mailer/shared';
import { upsertWorkflow } from '../../data-access/workflows.repository';
import type { Workflow } from '../workflows/workflow-schema';

/** The reserved name of each account's system workflow that carries its confirmation email. */
export const CONFIRMATION_WORKFLOW = 'Double opt-in confirmation';
export const CONFIRMATION_STEP = 'confirm';

/** What an account gets until it edits it: personalised like any workflow email. */
export const DEFAULT_CONFIRMATION: ConfirmationTemplate = {
  subject: 'Please confirm your subscription',
  html:
    '<p>Hello {{ first_name | default: "there" }},</p>' +
    '<p>Please confirm that you want to receive our emails:</p>' +
    '<p><a href="{{ confirm_url }}">Yes, subscribe me</a></p>' +
    '<p>If you did not ask for this, ignore this email and you will hear nothing more from us.</p>',
  text: null,
};

export interface ConfirmationTemplate {
  subject: string;
  html: string;
  /** Null: the text part is generated from the rendered HTML. */
  text: string | null;
}

/**
 * The account's confirmation workflow, written from its template (the default or its own). Its
 * trigger is the empty event name, which no product event can have, so nothing else enrols in it;
 * transactional, so "not subscribed" (every pending contact) does not hold it back, while a
 * suppressed address still does.
 */
export async function confirmationWorkflow(db: Pool | PoolClient, accountId: number, template: ConfirmationTemplate): Promise<{ id: number; workflow: Workflow }> {
  const workflow: Workflow = {
    name: CONFIRMATION_WORKFLOW,
    trigger: { event: '' },
    transactional: true,
    fallbacks: {},
    steps: [{ id: CONFIRMATION_STEP, type: 'email', subject: template.subject, html: template.html, ...(template.text === null ? {} : { text: template.text }) }],
  };
  const { id } = await upsertWorkflow(db, accountId, workflow);
  return { id, workflow };
}
