import type { ActivityEntry } from '../../../data-access/automation.client';

/** Each skip reason the sending pipeline records, in words. */
const SKIP_WORDS: Record<string, string> = {
  'not subscribed': 'the contact is not subscribed',
  unsubscribed: 'the contact unsubscribed',
  bounced: 'an earlier email to this address bounced',
  suppressed: 'the address is on the suppression list',
  'contact deleted': 'the contact was deleted',
  'contact unknown': 'the contact is not known (yet)',
  'invalid address': 'the address is not a valid email address',
  'step removed': 'the step was removed from the workflow',
  cancelled: 'the campaign was cancelled before this email went out',
};

const OUTCOME_WORDS: Record<string, string> = {
  sent: 'Sent',
  enrolled: 'Entered the workflow',
  not_matched: 'Not entered',
  already_enrolled: 'Not entered again',
  skipped: 'Skipped',
  retry_scheduled: 'Will retry',
  reconciled: 'Sending again',
  failed_permanent: 'Failed',
  failed: 'Failed',
  bounced: 'Bounced',
  unsubscribed: 'Unsubscribed',
  branched: 'Branched',
};

/** Badge class: green for sent, amber for skips and retries, red for failures. */
export function outcomeTone(outcome: string): string {
  if (outcome === 'sent' || outcome === 'enrolled') return 'active';
  if (outcome === 'failed' || outcome === 'failed_permanent' || outcome === 'bounced') return 'failed';
  return 'expired';
}

export const outcomeLabel = (outcome: string) => OUTCOME_WORDS[outcome] ?? outcome;

/**
 * Why it happened, as a sentence a person reads: the recorded reason codes (`retries_exhausted
 * after 5 attempts: 451 …`, `condition not met: plan eq "pro"`) translated, the SMTP answer kept.
 */
export function describeReason(entry: Pick<ActivityEntry, 'outcome' | 'reason' | 'smtp_response'>): string {
  const reason = entry.reason ?? '';
  if (entry.outcome === 'sent') return entry.smtp_response ? `Accepted by the mail server: ${entry.smtp_response}` : 'Accepted by the mail server.';
  if (entry.outcome === 'enrolled') return 'The event matched the trigger and its conditions.';
  if (entry.outcome === 'already_enrolled') return 'The contact already went through this workflow; each contact enters it once.';
  if (reason in SKIP_WORDS) return `Not sent: ${SKIP_WORDS[reason]}.`;
  const rule = /^condition not met: (.*)$/s.exec(reason);
  if (rule) return `The event did not meet the condition ${rule[1]}.`;
  const exhausted = /^retries_exhausted after (\d+) attempts: (.*)$/s.exec(reason);
  if (exhausted) return `Gave up after ${exhausted[1]} attempts; the mail server kept answering: ${exhausted[2]}`;
  const retry = /^retry in (\d+) ms: (.*)$/s.exec(reason);
  if (retry) return `The mail server answered ${retry[2]}; trying again in ${Math.max(1, Math.round(Number(retry[1]) / 1000))} s.`;
  const bounced = /^bounced: (.*)$/s.exec(reason);
  if (bounced) return `The mail server refused the address (${bounced[1]}); the contact is now marked bounced.`;
  const rejected = /^rejected: (.*)$/s.exec(reason);
  if (rejected) return `The mail server refused the email: ${rejected[1]}`;
  const render = /^render_failed: (.*)$/s.exec(reason);
  if (render) return `The template could not be rendered for this contact: ${render[1]}`;
  if (entry.outcome === 'reconciled') return 'The sender stopped mid-send; sent again with the same Message-ID so the contact gets it once.';
  if (reason === 'unsubscribe link') return 'The contact used the unsubscribe link.';
  const side = /^(then|else): (.*)$/s.exec(reason);
  if (entry.outcome === 'branched' && side) return `Went on the ${side[1] === 'then' ? '"then"' : '"otherwise"'} side: ${side[2]}.`;
  return reason || '—';
}
