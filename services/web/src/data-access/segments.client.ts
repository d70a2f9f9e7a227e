import { AppError, type Caller, CommonErrorCodes, expectOk, type SignedClient } from '@mailer/shared';

/** A segment rule as contacts validates it: a group of conditions (see contacts' segment-rule). */
export interface SegmentGroup {
  match: 'all' | 'any';
  conditions: Array<SegmentCondition | SegmentGroup>;
}

export type SegmentCondition =
  | {
      type: 'field';
      field: 'email' | 'first_name' | 'last_name' | 'source';
      op: 'eq' | 'neq' | 'contains' | 'exists' | 'in';
      value?: string | string[];
    }
  | {
      type: 'property';
      key: string;
      op: 'eq' | 'neq' | 'lt' | 'gt' | 'contains' | 'exists' | 'in';
      value?: string | number | boolean | Array<string | number>;
    }
  | { type: 'tag'; op: 'has' | 'has_not'; tag: string }
  | { type: 'subscribed'; value: boolean }
  | { type: 'last_engaged'; op: 'within_days' | 'not_within_days'; days: number }
  | { type: 'event'; event: string; min_count: number; days: number }
  | { type: 'campaign'; op: 'opened' | 'clicked' | 'not_opened' | 'not_clicked'; campaign_id: number }
  | { type: 'never_opened' };

export interface Segment {
  id: number;
  name: string;
  rule: SegmentGroup;
  created_at: string;
  updated_at: string;
}

export interface SegmentPreview {
  count: number;
  sample: Array<{ id: number; email: string; first_name: string | null; last_name: string | null }>;
}

/** Contacts' reasons for refusing a segment (422): each problem with where in the rule it is. */
export interface SegmentRefusal {
  problems: string[];
}

export const isSegmentRefusal = (value: unknown): value is SegmentRefusal =>
  typeof value === 'object' && value !== null && 'problems' in value;

const problemsOf = (body: unknown): string[] => {
  const value = body as { errors?: unknown; error?: unknown } | undefined;
  if (Array.isArray(value?.errors)) return value.errors.map(String);
  return [typeof value?.error === 'string' ? value.error : 'the segment was refused'];
};

const segmentPath = (id: string | number) => {
  if (!/^[1-9]\d{0,14}$/.test(String(id)))
    throw new AppError(CommonErrorCodes.NOT_FOUND, 'segment not found');
  return `/internal/v1/segments/${id}`;
};

/** The contacts service's segments (it owns the rule and evaluates it), signed for the signed-in account. */
export class SegmentsClient {
  constructor(private readonly client: SignedClient) {}

  private async write<T>(
    method: 'POST' | 'PUT',
    caller: Caller,
    path: string,
    body: unknown,
  ): Promise<T | SegmentRefusal> {
    const answer = await this.client.call(caller, method, path, body);
    if (answer.status === 422 || answer.status === 400) return { problems: problemsOf(answer.body) };
    return expectOk<{ data: T }>(answer, 'segments').data;
  }

  async list(caller: Caller): Promise<Segment[]> {
    return expectOk<{ data: Segment[] }>(
      await this.client.call(caller, 'GET', '/internal/v1/segments'),
      'segments',
    ).data;
  }

  async get(caller: Caller, id: string | number): Promise<Segment> {
    return expectOk<{ data: Segment }>(await this.client.call(caller, 'GET', segmentPath(id)), 'segment')
      .data;
  }

  async count(caller: Caller, id: number): Promise<number> {
    return expectOk<{ data: { count: number } }>(
      await this.client.call(caller, 'GET', `${segmentPath(id)}/count`),
      'segment',
    ).data.count;
  }

  create(caller: Caller, input: { name: string; rule: SegmentGroup }) {
    return this.write<Segment>('POST', caller, '/internal/v1/segments', input);
  }

  update(caller: Caller, id: number, input: { name: string; rule: SegmentGroup }) {
    return this.write<Segment>('PUT', caller, segmentPath(id), input);
  }

  preview(caller: Caller, rule: SegmentGroup) {
    return this.write<SegmentPreview>('POST', caller, '/internal/v1/segments/preview', { rule });
  }

  async remove(caller: Caller, id: number): Promise<void> {
    expectOk(await this.client.call(caller, 'DELETE', segmentPath(id)), 'segment');
  }
}
