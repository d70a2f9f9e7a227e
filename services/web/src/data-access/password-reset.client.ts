import { expectOk, type SignedClient } from '@mailer/shared';

/** Why a reset link no longer works (the gateway's word for it). */
export type UnusableLink = 'unknown' | 'expired' | 'used';

export type ResetRequestOutcome =
  | { outcome: 'accepted'; reset: { token: string; email: string } | undefined }
  | { outcome: 'throttled'; retryAfterSeconds: number };

export type RedeemOutcome = { outcome: 'done' } | { outcome: 'refused'; messages: string[] } | { outcome: 'unusable'; why: UnusableLink };

// Before anyone is signed in there is no account to call for.
const caller = (requestId: string) => ({ accountId: 0, requestId });

const unusableOf = (body: unknown): UnusableLink => {
  const state = (body as { state?: unknown } | undefined)?.state;
  return state === 'expired' || state === 'used' ? state : 'unknown';
};

/**
 * Password reset by emailed link spans two services: the gateway owns users and their reset
 * tokens (it hands this app the token once, to put in the link), automation sends the email
 * through the one SMTP pipeline.
 */
export class PasswordResetClient {
  constructor(
    private readonly gateway: SignedClient,
    private readonly automation: SignedClient,
  ) {}

  /** Whether automation's SMTP server can take an email now (asked before any token is made). */
  async canSend(requestId: string): Promise<boolean> {
    const answer = await this.automation.call(caller(requestId), 'GET', '/internal/v1/system-emails/status');
    return expectOk<{ data: { can_send: boolean } }>(answer, 'automation').data.can_send === true;
  }

  /** A new token for the address's user (none for an unknown address), behind the request throttle. */
  async request(requestId: string, input: { email: string; ip: string }): Promise<ResetRequestOutcome> {
    const answer = await this.gateway.call(caller(requestId), 'POST', '/internal/v1/password-resets', input);
    if (answer.status === 429) {
      const seconds = Number(answer.headers['retry-after']);
      return { outcome: 'throttled', retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 60 };
    }
    const data = expectOk<{ data: { token: string | null; email: string | null } }>(answer, 'gateway').data;
    return { outcome: 'accepted', reset: data.token && data.email ? { token: data.token, email: data.email } : undefined };
  }

  /** Whether the link still works; never spends it. */
  async check(requestId: string, token: string): Promise<'usable' | UnusableLink> {
    const answer = await this.gateway.call(caller(requestId), 'POST', '/internal/v1/password-resets/check', { token });
    if (answer.status === 410) return unusableOf(answer.body);
    expectOk(answer, 'gateway');
    return 'usable';
  }

  async redeem(requestId: string, token: string, newPassword: string): Promise<RedeemOutcome> {
    const answer = await this.gateway.call(caller(requestId), 'POST', '/internal/v1/password-resets/redeem', { token, new_password: newPassword });
    if (answer.status === 410) return { outcome: 'unusable', why: unusableOf(answer.body) };
    if (answer.status === 422) {
      const errors = (answer.body as { errors?: unknown } | undefined)?.errors;
      return { outcome: 'refused', messages: Array.isArray(errors) ? errors.map(String) : ['the new password was refused'] };
    }
    expectOk(answer, 'gateway');
    return { outcome: 'done' };
  }

  /** Sends through automation; rejects (503) when its SMTP server cannot take the email. */
  async sendEmail(requestId: string, email: { to: string; subject: string; html: string; text: string }): Promise<void> {
    expectOk(await this.automation.call(caller(requestId), 'POST', '/internal/v1/system-emails', email), 'automation');
  }
}
