import type { Logger } from 'pino';
import type { Pool, Registry } from '@mailer/shared';
import type { AccountFiguresClient } from '../../data-access/account-figures.client';
import type { AutomationClient } from '../../data-access/automation.client';
import type { CampaignsClient } from '../../data-access/campaigns.client';
import type { ContactsClient } from '../../data-access/contacts.client';
import type { GatewayClient } from '../../data-access/gateway.client';
import type { EngagementClient } from '../../data-access/engagement.client';
import type { SegmentsClient } from '../../data-access/segments.client';
import type { DoubleOptInClient } from '../../data-access/double-opt-in.client';
import type { PasswordResetClient } from '../../data-access/password-reset.client';
import type { WebhooksClient } from '../../data-access/webhooks.client';
import type { ImportWorker } from '../../domain/import-worker';
import type { Sessions } from '../../domain/sessions';
import type { NewKeyFlash } from '../pages/settings/new-key-flash';

export interface WebDeps {
  logger: Logger;
  pool: Pool;
  sessions: Sessions;
  gateway: GatewayClient;
  contacts: ContactsClient;
  campaigns: CampaignsClient;
  automation: AutomationClient;
  /** Dashboard figures and a contact's history (automation). */
  figures: AccountFiguresClient;
  /** Tracking settings, workflow step figures and a contact's emails (automation). */
  engagement: EngagementClient;
  /** Segments: saved rules and a rule's live preview (contacts). */
  segments: SegmentsClient;
  /** Settings → Webhooks (the webhooks service); the dashboard also reads whether an endpoint is failing. */
  webhooks: WebhooksClient;
  /** Settings → Double opt-in: the switch and subscribe form (contacts), the confirmation email (automation). */
  doubleOptIn: DoubleOptInClient;
  /** Password reset by emailed link: tokens in the gateway, the email through automation. */
  passwordReset: PasswordResetClient;
  /** PUBLIC_BASE_URL: where the emailed reset link points (never the request's Host header). */
  publicBaseUrl: string;
  /** Runs started CSV imports (woken when one starts). */
  importWorker: Pick<ImportWorker, 'wake'>;
  flash: NewKeyFlash;
  metrics: Registry;
  /** METRICS_TOKEN: when set, GET /metrics answers only a scraper presenting it. */
  metricsToken: string;
  /** Express `trust proxy`: the gateway in front of us. */
  trustProxy: string;
  /** Readiness probes of the services the pages need. */
  readiness: Array<{ name: string; check: () => Promise<void> }>;
}
