import { AppError } from '@mailer/shared';
import type { CampaignStatus } from '../campaign';

/**
 * Every way a campaign's status may change, in one table: the operator CLI, the internal API, the
 * scheduler and automation's progress all go through `nextStatus`, so no path can skip a rule.
 * docs/campaigns.md draws the same table.
 */
export type CampaignAction =
  | 'edit'
  | 'test'
  | 'approve'
  | 'return_to_draft'
  | 'send_now'
  | 'schedule'
  | 'start_scheduled'
  | 'pause'
  | 'resume'
  | 'cancel'
  | 'finish'
  | 'fail'
  | 'retry_failed';

const TRANSITIONS: Record<CampaignAction, Partial<Record<CampaignStatus, CampaignStatus>>> = {
  edit: { draft: 'draft' },
  test: { draft: 'draft', approved: 'approved' },
  approve: { draft: 'approved' },
  return_to_draft: { approved: 'draft' },
  send_now: { approved: 'sending' },
  schedule: { approved: 'scheduled' },
  start_scheduled: { scheduled: 'sending' },
  // Pause and resume keep `sending`; the paused flag says which one applies (checked below).
  pause: { sending: 'sending' },
  resume: { sending: 'sending' },
  cancel: { scheduled: 'approved', sending: 'failed' },
  finish: { sending: 'sent' },
  fail: { sending: 'failed' },
  retry_failed: { sent: 'sending' },
};

export const CampaignErrorCodes = {
  ILLEGAL_TRANSITION: 'CAMPAIGN.ILLEGAL_TRANSITION',
  INCOMPLETE: 'CAMPAIGN.INCOMPLETE',
} as const;

/** The state a campaign moves to; refuses with ILLEGAL_TRANSITION (409) when the action is not allowed now. */
export function nextStatus(current: { status: CampaignStatus; paused: boolean }, action: CampaignAction): CampaignStatus {
  const next = TRANSITIONS[action][current.status];
  const pauseMismatch = (action === 'pause' && current.paused) || (action === 'resume' && !current.paused);
  if (next === undefined || pauseMismatch) {
    const allowed = Object.keys(TRANSITIONS[action]).join(' or ');
    const state = current.status === 'sending' && current.paused ? 'sending (paused)' : current.status;
    throw new AppError(
      CampaignErrorCodes.ILLEGAL_TRANSITION,
      `cannot ${action.replace(/_/g, ' ')} a campaign that is ${state} (allowed from: ${pauseMismatch ? (action === 'pause' ? 'sending, not paused' : 'sending, paused') : allowed})`,
      { status: current.status, paused: current.paused, action },
    );
  }
  return next;
}

/** The transition table for documentation and the app (which buttons to show). */
export const allowedActions = (current: { status: CampaignStatus; paused: boolean }): CampaignAction[] =>
  (Object.keys(TRANSITIONS) as CampaignAction[]).filter((action) => {
    try {
      nextStatus(current, action);
      return true;
    } catch {
      return false;
    }
  });
