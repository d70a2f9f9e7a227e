import { MailerApiError, MailerRateLimitError, MailerValidationError } from './errors';
import type {
  AcceptedEvent,
  Campaign,
  CampaignFilters,
  Contact,
  ContactChanges,
  ContactFilters,
  NewContact,
  Page,
  ProductEvent,
} from './types';

export interface MailerClientOptions {
  /** `{base_url}`: the REST address, ending in /api/v1 (e.g. https://mail.example.com/api/v1). */
  baseUrl: string;
  /** `{events_url}`: the product-event address (e.g. https://events.mail.example.com). */
  eventsUrl: string;
  apiKey: string;
  /** How many times a 429 is retried after waiting its Retry-After (default 2). */
  maxRetries?: number;
  /** A longer Retry-After is not waited for: the 429 is thrown at once (default 60 s). */
  maxRetryAfterSeconds?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

type Query = Record<string, string | number | boolean | undefined>;

const queryString = (query: Query = {}) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
};

const parse = (text: string): unknown => {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
};

const errorText = (body: unknown) =>
  typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: unknown }).error) : 'request failed';

/** The Mailer API: contacts, read-only campaigns and product events, with typed answers and errors. */
export class MailerClient {
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: MailerClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  createContact(contact: NewContact): Promise<Contact> {
    return this.data('POST', this.rest('/contacts'), contact);
  }

  listContacts(filters: ContactFilters = {}): Promise<Page<Contact>> {
    return this.send('GET', this.rest(`/contacts${queryString({ ...filters })}`)) as Promise<Page<Contact>>;
  }

  getContact(id: number): Promise<Contact> {
    return this.data('GET', this.rest(`/contacts/${id}`));
  }

  updateContact(id: number, changes: ContactChanges): Promise<Contact> {
    return this.data('PATCH', this.rest(`/contacts/${id}`), changes);
  }

  async deleteContact(id: number): Promise<void> {
    await this.send('DELETE', this.rest(`/contacts/${id}`));
  }

  listCampaigns(filters: CampaignFilters = {}): Promise<Page<Campaign>> {
    return this.send('GET', this.rest(`/campaigns${queryString({ ...filters })}`)) as Promise<Page<Campaign>>;
  }

  getCampaign(id: number): Promise<Campaign> {
    return this.data('GET', this.rest(`/campaigns/${id}`));
  }

  /** With an idempotency key, a retry of the same event is answered once and published once. */
  sendEvent(event: ProductEvent, options: { idempotencyKey?: string } = {}): Promise<AcceptedEvent> {
    const headers: Record<string, string> = options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {};
    return this.data('POST', `${this.options.eventsUrl.replace(/\/$/, '')}/v1/events`, event, headers);
  }

  private rest(path: string): string {
    return `${this.options.baseUrl.replace(/\/$/, '')}${path}`;
  }

  private async data<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    return ((await this.send(method, url, body, headers)) as { data: T }).data;
  }

  /** One call; a 429 waits its Retry-After and tries again, at most `maxRetries` times. */
  private async send(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    const maxRetries = this.options.maxRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      const response = await this.fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const parsed = parse(await response.text());
      if (response.ok) return parsed;
      if (response.status === 422) throw new MailerValidationError((parsed ?? {}) as { errors?: unknown });
      if (response.status !== 429) throw new MailerApiError(response.status, parsed, errorText(parsed));
      const retryAfter = Number(response.headers.get('retry-after') ?? 60);
      const wait = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : 60;
      if (attempt >= maxRetries || wait > (this.options.maxRetryAfterSeconds ?? 60)) throw new MailerRateLimitError(parsed, wait);
      await this.sleep(wait * 1000);
    }
  }
}
