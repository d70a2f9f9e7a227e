import { AppError, type Caller, CommonErrorCodes, expectOk, type SignedClient } from '@mailer/shared';

/** A user as the gateway's internal API describes one (no password, only a stamp of it). */
export interface GatewayUser {
  id: number;
  account_id: number;
  email: string;
  /** Changes whenever the password does: a session opened under another stamp has ended. */
  credentials_stamp: string;
}

export interface AccountSummary {
  id: number;
  name: string;
  plan: string;
  api_access: boolean;
}

export interface ApiKeySummary {
  id: number;
  name: string;
  key_id: string;
  created_at: string;
  expires_on: string | null;
  last_used_at: string | null;
  status: 'active' | 'expired' | 'revoked';
}

export type VerifyOutcome =
  | { outcome: 'signed-in'; user: GatewayUser }
  | { outcome: 'refused' }
  | { outcome: 'throttled'; retryAfterSeconds: number };

const NO_ACCOUNT = 0;

const errorsOf = (body: unknown): string[] => {
  const value = body as { errors?: unknown; error?: unknown } | undefined;
  if (Array.isArray(value?.errors)) return value.errors.map(String);
  return typeof value?.error === 'string' ? [value.error] : [];
};

/** The gateway's internal API: users, the account and its API keys live in the gateway's database. */
export class GatewayClient {
  constructor(private readonly client: SignedClient) {}

  /** Checks a password with the gateway's sign-in throttle (per address and per user). */
  async verify(requestId: string, input: { email: string; password: string; ip: string }): Promise<VerifyOutcome> {
    const answer = await this.client.call({ accountId: NO_ACCOUNT, requestId }, 'POST', '/internal/v1/users/verify', input);
    if (answer.status === 200) return { outcome: 'signed-in', user: (answer.body as { data: GatewayUser }).data };
    if (answer.status === 429) {
      const seconds = Number(answer.headers['retry-after']);
      return { outcome: 'throttled', retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 60 };
    }
    if (answer.status === 401) return { outcome: 'refused' };
    return expectOk(answer, 'gateway');
  }

  /** The user, when it still exists in this account; undefined otherwise. */
  async user(caller: Caller, userId: number): Promise<GatewayUser | undefined> {
    const answer = await this.client.call(caller, 'GET', `/internal/v1/users/${userId}`);
    if (answer.status === 404) return undefined;
    return expectOk<{ data: GatewayUser }>(answer, 'gateway').data;
  }

  /** Resolves to the new credentials stamp; refuses a wrong current password or a short new one. */
  async changePassword(caller: Caller, userId: number, input: { current_password: string; new_password: string }): Promise<string> {
    const answer = await this.client.call(caller, 'POST', `/internal/v1/users/${userId}/password`, input);
    if (answer.status === 401) throw new AppError(CommonErrorCodes.VALIDATION, 'current password: is not correct', {}, ['current password: is not correct']);
    if (answer.status === 422) throw new AppError(CommonErrorCodes.VALIDATION, errorsOf(answer.body)[0] ?? 'invalid', {}, errorsOf(answer.body));
    return expectOk<{ data: GatewayUser }>(answer, 'gateway').data.credentials_stamp;
  }

  async account(caller: Caller): Promise<AccountSummary> {
    return expectOk<{ data: AccountSummary }>(await this.client.call(caller, 'GET', '/internal/v1/account'), 'gateway').data;
  }

  async apiKeys(caller: Caller): Promise<ApiKeySummary[]> {
    return expectOk<{ data: ApiKeySummary[] }>(await this.client.call(caller, 'GET', '/internal/v1/api-keys'), 'gateway').data;
  }

  /** Creates a key; its plaintext exists only in this answer. */
  async createApiKey(caller: Caller, input: { name: string; expires_on: string | null }): Promise<{ key: ApiKeySummary; plaintext: string }> {
    const answer = await this.client.call(caller, 'POST', '/internal/v1/api-keys', input);
    if (answer.status === 422) throw new AppError(CommonErrorCodes.VALIDATION, errorsOf(answer.body)[0] ?? 'invalid', {}, errorsOf(answer.body));
    return expectOk<{ data: { key: ApiKeySummary; plaintext: string } }>(answer, 'gateway').data;
  }

  async revokeApiKey(caller: Caller, id: string): Promise<void> {
    expectOk(await this.client.call(caller, 'POST', `/internal/v1/api-keys/${encodeURIComponent(id)}/revoke`), 'API key');
  }
}
