import { AppError, type Caller, CommonErrorCodes, expectOk, type SignedClient } from '@mailer/shared';

/** A contact as the contacts service's API describes one. */
export interface Contact {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  subscribed: boolean;
  bounced: boolean;
  source: string | null;
  tags: string[];
  custom_properties: Record<string, string | number | boolean>;
  created_at: string;
  updated_at: string;
}

export interface ContactPage {
  data: Contact[];
  meta: { current_page: number; total_pages: number; total_count: number; per_page: number };
}

export interface ContactFilter {
  q?: string | undefined;
  subscribed?: boolean | undefined;
  bounced?: boolean | undefined;
  tag?: string | undefined;
}

/** The fields a form writes: the contacts service validates them (address rule, domain, limits). */
export interface ContactInput {
  email?: string;
  first_name?: string | null;
  last_name?: string | null;
  subscribed?: boolean;
  tags?: string[];
  custom_properties?: Record<string, string | number | boolean | null>;
}

export interface ContactFigures {
  total: number;
  subscribed: number;
  created_since: number;
}

/** One imported row as the contacts service takes it (its rules decide; the app only reads the file). */
export interface ImportRow {
  email: string;
  first_name?: string;
  last_name?: string;
  subscribed?: boolean;
  tags?: string[];
  custom_properties?: Record<string, string>;
}

export type ImportOutcome =
  | { outcome: 'created' | 'updated'; id: number }
  | { outcome: 'valid'; existing: boolean }
  | { outcome: 'failed'; errors: string[] };

export interface ExportSlice {
  data: Contact[];
  next_before: number | null;
  /** On the first slice: every custom property name of the filtered contacts (the export's columns). */
  property_keys?: string[];
}

export interface Rejection {
  messages: string[];
}

export const filterQuery = (filter: ContactFilter): URLSearchParams => {
  const query = new URLSearchParams();
  if (filter.q) query.set('q', filter.q);
  if (filter.subscribed !== undefined) query.set('subscribed', String(filter.subscribed));
  if (filter.bounced !== undefined) query.set('bounced', String(filter.bounced));
  if (filter.tag) query.set('tag', filter.tag);
  return query;
};

const messagesOf = (body: unknown): string[] => {
  const value = body as { errors?: unknown; error?: unknown } | undefined;
  if (Array.isArray(value?.errors)) return value.errors.map(String);
  return [typeof value?.error === 'string' ? value.error : 'the contact was refused'];
};

/**
 * The contacts service through the routes the gateway proxies (`/api/v1/contacts*`), signed for the
 * signed-in account: the service scopes every row to it, so another account's id is simply 404.
 */
export class ContactsClient {
  constructor(private readonly client: SignedClient) {}

  async list(caller: Caller, filter: ContactFilter, page: number, perPage: number): Promise<ContactPage> {
    const query = filterQuery(filter);
    query.set('page', String(page));
    query.set('per_page', String(perPage));
    const answer = await this.client.call(caller, 'GET', `/api/v1/contacts?${query.toString()}`);
    if (answer.status === 422) throw new AppError(CommonErrorCodes.BAD_REQUEST, messagesOf(answer.body).join('; '));
    return expectOk<ContactPage>(answer, 'contacts');
  }

  /** How many contacts match, without reading them. */
  async count(caller: Caller, filter: ContactFilter): Promise<number> {
    return (await this.list(caller, filter, 1, 1)).meta.total_count;
  }

  /** Total, subscribed and created since `since`: one count in the contacts service. */
  async figures(caller: Caller, since: Date): Promise<ContactFigures> {
    const answer = await this.client.call(caller, 'GET', `/internal/v1/contacts/figures?since=${encodeURIComponent(since.toISOString())}`);
    return expectOk<{ data: ContactFigures }>(answer, 'contacts').data;
  }

  async get(caller: Caller, id: string): Promise<Contact> {
    if (!/^[1-9]\d{0,15}$/.test(id)) throw new AppError(CommonErrorCodes.NOT_FOUND, 'contact not found');
    return expectOk<{ data: Contact }>(await this.client.call(caller, 'GET', `/api/v1/contacts/${id}`), 'contact').data;
  }

  /** The created contact, or the service's reasons for refusing it. */
  async create(caller: Caller, input: ContactInput): Promise<Contact | Rejection> {
    const answer = await this.client.call(caller, 'POST', '/api/v1/contacts', input);
    if (answer.status === 422 || answer.status === 409 || answer.status === 400) return { messages: messagesOf(answer.body) };
    return expectOk<{ data: Contact }>(answer, 'contacts').data;
  }

  async update(caller: Caller, id: number, input: ContactInput): Promise<Contact | Rejection> {
    const answer = await this.client.call(caller, 'PATCH', `/api/v1/contacts/${id}`, input);
    if (answer.status === 422 || answer.status === 409 || answer.status === 400) return { messages: messagesOf(answer.body) };
    return expectOk<{ data: Contact }>(answer, 'contact').data;
  }

  async remove(caller: Caller, id: number): Promise<void> {
    expectOk(await this.client.call(caller, 'DELETE', `/api/v1/contacts/${id}`), 'contact');
  }

  /** Takes one tag off (the public interface only adds tags). */
  async removeTag(caller: Caller, id: number, tag: string): Promise<Contact> {
    const answer = await this.client.call(caller, 'DELETE', `/internal/v1/contacts/${id}/tags/${encodeURIComponent(tag)}`);
    return expectOk<{ data: Contact }>(answer, 'contact').data;
  }

  /** One batch of a CSV import: each row's outcome, in order. A dry run checks without writing. */
  async importRows(caller: Caller, rows: ImportRow[], dryRun: boolean): Promise<ImportOutcome[]> {
    const answer = await this.client.call(caller, 'POST', '/internal/v1/contacts/import', { rows, dry_run: dryRun });
    return expectOk<{ data: ImportOutcome[] }>(answer, 'contacts').data;
  }

  /** One slice of the filtered list for an export, newest first, below `before`. */
  async exportSlice(caller: Caller, filter: ContactFilter, before: number | undefined): Promise<ExportSlice> {
    const query = filterQuery(filter);
    if (before !== undefined) query.set('before', String(before));
    const answer = await this.client.call(caller, 'GET', `/internal/v1/contacts/export?${query.toString()}`);
    if (answer.status === 422) throw new AppError(CommonErrorCodes.BAD_REQUEST, messagesOf(answer.body).join('; '));
    return expectOk<ExportSlice>(answer, 'contacts');
  }
}

export const isRejection = (value: Contact | Rejection): value is Rejection => 'messages' in value;
