import { randomUUID } from 'node:crypto';
import { GroupCommit, type CampaignContent } from '@mailer/shared';
import { crashPoint } from '../../crash-point';
import { sendingDeliveries, type CampaignDelivery } from '../../data-access/campaign-deliveries.repository';
import { claimCampaignSends, recordCampaignOutcomes, type BatchedOutcome, type ClaimedCampaignSend } from '../../data-access/campaign-sends.repository';
import { sendCampaignEmail } from '../../domain/campaigns/send-campaign-email';
import type { SendContext } from '../../domain/sending/send-context';
import { TokenBucket } from '../../token-bucket';

const LAPSED_CHECK_MS = 1000;
const OUTCOMES_PER_STATEMENT = 100;
/**
 * How long the list of campaigns sending is reused. Re-reading it before every claim cost a query
 * (and a parse of each campaign's content) per claim; a pause needs no fresh list, since the claim
 * itself takes rows only while the delivery is sending, and a new send wakes the sender.
 */
const DELIVERIES_FRESH_MS = 250;

export interface CampaignSenderOptions {
  /** Campaign sends in flight at once on this instance. */
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Emails per second per account when the account set none (CAMPAIGN_RATE_PER_SECOND). */
  defaultRatePerSecond: number;
  /** True while workflow emails are waiting for the pipeline: campaigns then claim nothing new. */
  workflowsBusy: () => boolean;
  afterSend?: () => void;
}

/**
 * Sends the campaigns in flight, behind workflow emails: claims a campaign's due ledger rows only
 * as fast as its account's rate allows and only while the workflow scheduler has room, so a big
 * campaign neither floods the relay nor delays a welcome email by more than one send.
 */
export class CampaignSender {
  readonly instance = `automation-campaigns-${randomUUID()}`;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly buckets = new Map<number, TokenBucket>();
  private stopped = false;
  private running: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  /**
   * Plain outcomes (no fact, no bounce), many to a statement: those finished while one is written go
   * into the next. At a thousand emails a second one UPDATE each cost Postgres more than the sending.
   */
  private readonly outcomes: GroupCommit<BatchedOutcome, boolean>;
  /** When each campaign's lapsed claims were last looked for (a crashed instance's rows). */
  private readonly lapsedCheckedAt = new Map<number, number>();
  private deliveries: { list: CampaignDelivery[]; readAt: number } | undefined;

  constructor(
    private readonly ctx: SendContext,
    private readonly options: CampaignSenderOptions,
  ) {
    this.outcomes = new GroupCommit(async (outcomes) => {
      const recorded = await recordCampaignOutcomes(ctx.pool, outcomes);
      return outcomes.map((entry) => recorded.has(entry.id));
    }, OUTCOMES_PER_STATEMENT);
  }

  start(): void {
    this.running = this.run();
  }

  /** A campaign started or changed: read the campaigns sending again and look for work now. */
  wake(): void {
    this.deliveries = undefined;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.running;
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let waitMs = this.options.pollMs;
      try {
        waitMs = await this.tick();
      } catch (error) {
        this.ctx.logger.warn({ err: error }, 'campaign sender iteration failed');
      }
      if (waitMs > 0 && !this.stopped) await this.pause(waitMs);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      this.wakeUp = undefined;
    });
  }

  /** One pass over the campaigns in flight; resolves to how long to wait before the next. */
  private async tick(): Promise<number> {
    if (this.options.workflowsBusy()) return 5;
    const free = this.options.concurrency - this.inFlight.size;
    // Under load, claim a quarter of the pipeline at a time rather than one row per finished send.
    if (free < Math.max(1, Math.floor(this.options.concurrency / 4))) {
      await Promise.race([...this.inFlight]);
      return 0;
    }
    const deliveries = await this.sendingDeliveries();
    // Forget campaigns no longer sending, so the map holds only those in flight.
    for (const campaignId of this.lapsedCheckedAt.keys()) {
      if (!deliveries.some((delivery) => delivery.campaign_id === campaignId)) this.lapsedCheckedAt.delete(campaignId);
    }
    if (deliveries.length === 0) return this.options.pollMs;
    let claimedAny = false;
    let soonest = this.options.pollMs;
    for (const delivery of deliveries) {
      const room = this.options.concurrency - this.inFlight.size;
      if (room <= 0) break;
      const bucket = this.bucketOf(delivery);
      const tokens = bucket.available();
      if (tokens < 1) {
        soonest = Math.min(soonest, bucket.msUntilNext());
        continue;
      }
      const claimed = await claimCampaignSends(
        this.ctx.pool,
        delivery.campaign_id,
        this.instance,
        Math.min(room, tokens),
        this.options.leaseMs,
        this.lapsedCheckDue(delivery.campaign_id),
      );
      if (claimed.length === 0) continue;
      // Test-only: the claims are committed with our lease, nothing is sent yet.
      crashPoint('after_claim');
      bucket.take(claimed.length);
      claimedAny = true;
      for (const send of claimed) this.launch(send, delivery.content);
    }
    return claimedAny ? 0 : soonest;
  }

  private async sendingDeliveries(): Promise<CampaignDelivery[]> {
    const now = Date.now();
    if (!this.deliveries || now - this.deliveries.readAt >= DELIVERIES_FRESH_MS) {
      this.deliveries = { list: await sendingDeliveries(this.ctx.pool), readAt: now };
    }
    return this.deliveries.list;
  }

  /** A lapsed claim waits out its lease anyway; looking once a second per campaign is soon enough. */
  private lapsedCheckDue(campaignId: number): boolean {
    const now = Date.now();
    if (now - (this.lapsedCheckedAt.get(campaignId) ?? 0) < LAPSED_CHECK_MS) return false;
    this.lapsedCheckedAt.set(campaignId, now);
    return true;
  }

  private bucketOf(delivery: CampaignDelivery): TokenBucket {
    const rate = delivery.rate_per_second ?? this.options.defaultRatePerSecond;
    let bucket = this.buckets.get(delivery.account_id);
    if (!bucket) {
      bucket = new TokenBucket(rate);
      this.buckets.set(delivery.account_id, bucket);
    }
    bucket.setRate(rate);
    return bucket;
  }

  private launch(send: ClaimedCampaignSend, content: CampaignContent): void {
    const work = sendCampaignEmail(this.ctx, send, content, this.outcomes)
      .then(
        () => undefined,
        (error: unknown) =>
          this.ctx.logger.error({ err: error, campaignId: send.campaign_id, contactId: send.contact_id }, 'campaign send failed unexpectedly; the lease will expire and it is retried'),
      )
      .finally(() => {
        this.inFlight.delete(work);
        this.options.afterSend?.();
        this.wakeUp?.();
      });
    this.inFlight.add(work);
  }
}

