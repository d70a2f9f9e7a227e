/**
 * The API's shapes. The e2e test `client-example.e2e.test.ts` checks at compile time that each one
 * is the zod-inferred type the services answer with (or accept), and at run time that every answer
 * the client returns validates against the served OpenAPI document.
 */
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

export type CampaignStatus = 'draft' | 'scheduled' | 'sent' | 'failed' | 'approved' | 'sending';

export interface Campaign {
  id: number;
  name: string;
  title: string;
  status: CampaignStatus;
  preview_text: string;
  emails_sent: number;
  emails_failed: number;
  total_recipients: number;
  unsubscribes_count: number;
  send_at: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PaginationMeta {
  current_page: number;
  total_pages: number;
  total_count: number;
  per_page: number;
}

export interface Page<T> {
  data: T[];
  meta: PaginationMeta;
}

export interface NewContact {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  subscribed?: boolean;
  source?: string | null;
  tags?: string[];
  custom_properties?: Record<string, string | number | boolean | null>;
}

/** Only the fields to change; tags are added; a custom property set to null is removed. */
export type ContactChanges = Partial<NewContact>;

export interface ContactFilters {
  q?: string;
  subscribed?: boolean;
  bounced?: boolean;
  page?: number;
  per_page?: number;
}

export interface CampaignFilters {
  status?: CampaignStatus;
  q?: string;
  page?: number;
  per_page?: number;
}

export interface ProductEvent {
  event: string;
  email: string;
  properties?: Record<string, unknown>;
}

export interface AcceptedEvent {
  id: string;
  event: string;
  email: string;
  received_at: string;
}

export type DomainError = 'disposable' | 'no_mx' | 'dns_timeout';
