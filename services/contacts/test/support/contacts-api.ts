import { IDENTITY_HEADER } from '@mailer/shared';
import { signedIdentityFor } from '@mailer/testing';

export interface ContactJson {
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

export interface PageMeta {
  current_page: number;
  total_pages: number;
  total_count: number;
  per_page: number;
}

/** Every body shape the contacts API answers, so tests read fields without casts. */
export interface ApiBody {
  data: ContactJson;
  errors: string[];
  domain_error?: string;
  error?: string;
}

export interface ListBody {
  data: ContactJson[];
  meta: PageMeta;
  errors: string[];
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** Calls the service the way the gateway does: a signed identity header for the given account. */
export function contactsApi(baseUrl: string) {
  async function call<T>(
    accountId: number | undefined,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    const url = `${baseUrl}/api/v1/contacts${path}`;
    const sent = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    if (accountId !== undefined) headers[IDENTITY_HEADER] = signedIdentityFor(accountId, { method, url, body: sent });
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: sent });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : undefined) as T,
      text,
      headers: response.headers,
    };
  }
  return {
    call,
    create: (accountId: number, body: unknown) => call<ApiBody>(accountId, 'POST', '', body),
    get: (accountId: number, id: number | string) => call<ApiBody>(accountId, 'GET', `/${id}`),
    update: (accountId: number, id: number | string, body: unknown) =>
      call<ApiBody>(accountId, 'PATCH', `/${id}`, body),
    remove: (accountId: number, id: number | string) => call<ApiBody>(accountId, 'DELETE', `/${id}`),
    list: (accountId: number, query: Record<string, string> = {}) =>
      call<ListBody>(accountId, 'GET', `?${new URLSearchParams(query).toString()}`),
  };
}
