import { createLogger, IDENTITY_HEADER, type ConsumeOutcome } from '@mailer/shared';
import { serviceTestEnv, signedIdentityFor } from '@mailer/testing';
import { startCampaignsService } from '../../src/campaigns-service';
import { loadCampaignsConfig } from '../../src/config';

export interface Outcome {
  outcome: ConsumeOutcome;
  messageId: string | undefined;
}

/** The campaigns service in-process on port 0, with helpers to call it as the gateway would. */
export async function startCampaignsHarness(env: Record<string, string> = {}) {
  const outcomes: Outcome[] = [];
  const engagementOutcomes: Outcome[] = [];
  const config = loadCampaignsConfig(serviceTestEnv(env));
  const service = await startCampaignsService(config, createLogger('campaigns', { level: 'silent' }), {
    onProgressOutcome: (outcome, messageId) => outcomes.push({ outcome, messageId }),
    onEngagementOutcome: (outcome, messageId) => engagementOutcomes.push({ outcome, messageId }),
  });
  /** Calls the service with the gateway's signed identity for `accountId`. */
  const request = (accountId: number, path: string, init: RequestInit = {}) =>
    fetch(`${service.url}${path}`, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string> | undefined),
        [IDENTITY_HEADER]: signedIdentityFor(accountId, { method: init.method, url: `${service.url}${path}`, body: typeof init.body === 'string' ? init.body : undefined }),
      },
    });
  return { service, config, outcomes, engagementOutcomes, request, pool: service.pool, stop: () => service.stop() };
}

export type CampaignsHarness = Awaited<ReturnType<typeof startCampaignsHarness>>;
