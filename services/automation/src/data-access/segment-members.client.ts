import { z } from 'zod';
import { AppError, CommonErrorCodes, type SignedClient } from '@mailer/shared';

/** The most ids contacts answers per page (its segments routes' MAX_MEMBERS_PAGE). */
export const MEMBERS_PAGE = 5000;

const pageSchema = z.object({
  data: z.object({
    contact_ids: z.array(z.number().int().positive()),
    next_after: z.number().int().positive().nullable(),
  }),
});

/** Contacts could not answer now (unreachable, 5xx, a body it never sends): worth asking again later. */
export class SegmentMembersUnavailable extends Error {
  constructor(reason: string) {
    super(`the contacts service cannot list segment members now: ${reason}`);
    this.name = 'SegmentMembersUnavailable';
  }
}

/** Every member id of a segment, in id order, or `not_found` when the account has no such segment. */
export type SegmentMembers = { found: true; contactIds: number[] } | { found: false };

/**
 * A segment's members as the contacts service evaluates them now (it owns the rule and the history
 * it reads), page after page through `GET /internal/v1/segments/:id/members` with the account's
 * signed identity. Holds no connection of automation's database while it reads.
 */
export class SegmentMembersClient {
  constructor(private readonly contacts: SignedClient) {}

  async members(caller: { accountId: number; requestId: string }, segmentId: number): Promise<SegmentMembers> {
    const ids: number[] = [];
    let after = 0;
    for (;;) {
      const page = await this.page(caller, segmentId, after);
      if (!page) return { found: false };
      ids.push(...page.contact_ids);
      if (page.next_after === null) return { found: true, contactIds: ids };
      // A cursor that does not move forward would page for ever.
      if (page.next_after <= after) throw new Error(`contacts answered next_after ${page.next_after} to the members page after ${after}`);
      after = page.next_after;
    }
  }

  private async page(caller: { accountId: number; requestId: string }, segmentId: number, after: number) {
    let answer;
    try {
      answer = await this.contacts.call(caller, 'GET', `/internal/v1/segments/${segmentId}/members?after=${after}&limit=${MEMBERS_PAGE}`);
    } catch (error) {
      // SignedClient's 503: unreachable, timed out, or a 5xx.
      if (error instanceof AppError && error.code === CommonErrorCodes.UNAVAILABLE) throw new SegmentMembersUnavailable(error.message);
      throw error;
    }
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new Error(`contacts answered ${answer.status} to a segment members page: ${JSON.stringify(answer.body)}`);
    const parsed = pageSchema.safeParse(answer.body);
    if (!parsed.success) throw new Error('contacts answered a members page that is not { data: { contact_ids, next_after } }');
    return parsed.data.data;
  }
}
