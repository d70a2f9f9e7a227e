import { AppError } from '@mailer/shared';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../src/domain/campaign';
import { allowedActions, CampaignErrorCodes, nextStatus, type CampaignAction } from '../src/domain/sending/campaign-lifecycle';

// The whole table, written out once more by hand: a change to the lifecycle must change this too.
const ALLOWED: Array<[CampaignStatus, boolean, CampaignAction, CampaignStatus]> = [
  ['draft', false, 'edit', 'draft'],
  ['draft', false, 'test', 'draft'],
  ['draft', false, 'approve', 'approved'],
  ['approved', false, 'test', 'approved'],
  ['approved', false, 'return_to_draft', 'draft'],
  ['approved', false, 'send_now', 'sending'],
  ['approved', false, 'schedule', 'scheduled'],
  ['scheduled', false, 'start_scheduled', 'sending'],
  ['scheduled', false, 'cancel', 'approved'],
  ['sending', false, 'pause', 'sending'],
  ['sending', true, 'resume', 'sending'],
  ['sending', false, 'cancel', 'failed'],
  ['sending', true, 'cancel', 'failed'],
  ['sending', false, 'finish', 'sent'],
  ['sending', false, 'fail', 'failed'],
  // Automation reports a paused campaign as unfinished, but its end states stay reachable.
  ['sending', true, 'finish', 'sent'],
  ['sending', true, 'fail', 'failed'],
  ['sent', false, 'retry_failed', 'sending'],
];

describe('campaign lifecycle', () => {
  it.each(ALLOWED)('%s (paused: %s) --%s--> %s', (status, paused, action, next) => {
    expect(nextStatus({ status, paused }, action)).toBe(next);
  });

  it('refuses every other (status, action) pair with ILLEGAL_TRANSITION and says what is allowed', () => {
    const actions = [...new Set(ALLOWED.map(([, , action]) => action))];
    for (const status of CAMPAIGN_STATUSES) {
      for (const paused of status === 'sending' ? [false, true] : [false]) {
        const expected = ALLOWED.filter(([s, p]) => s === status && p === paused).map(([, , action]) => action).sort();
        expect(allowedActions({ status, paused }).sort()).toEqual(expected);
        for (const action of actions.filter((candidate) => !expected.includes(candidate))) {
          let error: unknown;
          try {
            nextStatus({ status, paused }, action);
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe(CampaignErrorCodes.ILLEGAL_TRANSITION);
          expect((error as AppError).message).toMatch(/^cannot .+ a campaign that is .+ \(allowed from: .+\)$/);
        }
      }
    }
  });
});
