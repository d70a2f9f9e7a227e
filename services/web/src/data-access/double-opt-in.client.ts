import type { Refused } from './automation.client';
import { expectOk, type Caller, type SignedClient } from '@mailer/shared';

/** The confirmation email an account sends a pending contact. */
export interface ConfirmationTemplate {
  subject: string;
  html: string;
  /** Null: the text part is generated from the HTML. */
  text: string | null;
}

export interface RenderedConfirmation {
  subject: string;
  html: string | null;
  text: string;
  /** False when no contact of the account has the sample address. */
  known_contact: boolean;
}

const messagesOf = (body: unknown): string[] => {
  const value = body as { errors?: unknown; error?: unknown } | undefined;
  if (Array.isArray(value?.errors)) return value.errors.map(String);
  return [typeof value?.error === 'string' ? value.error : 'refused'];
};

/**
 * Settings → Double opt-in spans two services: contacts owns the switch and the hosted subscribe
 * form (it decides who starts pending), automation the confirmation email (it renders and sends).
 * Both through their signed internal APIs, for the signed-in account.
 */
export class DoubleOptInClient {
  constructor(
    private readonly contacts: SignedClient,
    private readonly automation: SignedClient,
  ) {}

  async enabled(caller: Caller): Promise<boolean> {
    return expectOk<{ data: { enabled: boolean } }>(await this.contacts.call(caller, 'GET', '/internal/v1/double-opt-in'), 'double opt-in').data.enabled;
  }

  async setEnabled(caller: Caller, enabled: boolean): Promise<void> {
    expectOk(await this.contacts.call(caller, 'PUT', '/internal/v1/double-opt-in', { enabled }), 'double opt-in');
  }

  /** The hosted form's path on the public address (`/subscribe/<token>`). */
  async subscribeFormPath(caller: Caller): Promise<string> {
    return expectOk<{ data: { path: string } }>(await this.contacts.call(caller, 'GET', '/internal/v1/subscribe-form'), 'subscribe form').data.path;
  }

  /** The account's own template, or the default (`default: true`) until it saves one. */
  async template(caller: Caller): Promise<ConfirmationTemplate & { default: boolean }> {
    return expectOk<{ data: ConfirmationTemplate & { default: boolean } }>(await this.automation.call(caller, 'GET', '/internal/v1/confirmation-template'), 'confirmation template').data;
  }

  /** Saves after automation's checks (parses, carries the confirm link); else its reasons by field. */
  async saveTemplate(caller: Caller, template: ConfirmationTemplate): Promise<undefined | Refused> {
    const answer = await this.automation.call(caller, 'PUT', '/internal/v1/confirmation-template', template);
    if (answer.status === 422 || answer.status === 400) return { refused: messagesOf(answer.body) };
    expectOk(answer, 'confirmation template');
    return undefined;
  }

  /** The template rendered for one contact with a sample confirm link (nothing is saved or sent). */
  async preview(caller: Caller, template: ConfirmationTemplate, contactEmail: string): Promise<RenderedConfirmation | Refused> {
    const answer = await this.automation.call(caller, 'POST', '/internal/v1/confirmation-template/preview', { subject: template.subject, html: template.html, text: template.text, contact_email: contactEmail });
    if (answer.status === 422 || answer.status === 400) return { refused: messagesOf(answer.body) };
    return expectOk<{ data: RenderedConfirmation }>(answer, 'confirmation preview').data;
  }
}
