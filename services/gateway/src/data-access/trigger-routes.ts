import { coalesceWrites, triggerRoutingKey, TRIGGER_ROUTES_WHOLE, type Redis } from '@mailer/shared';

/**
 * Automation's record of the triggers bound for its workflows (`triggerRoutesSetKey`), read per
 * event so one no enabled workflow triggers on is not published: no broker write, no wait for its
 * confirm (docs/decisions.md, "Session 40").
 */
export class TriggerRoutes {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  /**
   * False only when the record is whole and lacks the event's trigger. True whenever that is not
   * known (Redis unreachable, the record expired or not written yet): publishing an event nobody
   * routes costs a confirm; leaving one unpublished would lose a workflow's email. Never rejects.
   */
  async mayTrigger(accountId: number, event: string): Promise<boolean> {
    if (this.redis.status !== 'ready') return true;
    coalesceWrites(this.redis);
    try {
      const [whole, routed] = await this.redis.smismember(this.key, TRIGGER_ROUTES_WHOLE, triggerRoutingKey(accountId, event));
      return whole === 0 || routed === 1;
    } catch {
      return true;
    }
  }
}
