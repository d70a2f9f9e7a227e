import type { CampaignContent } from '@mailer/shared';
import type { OutgoingEmail } from '../../data-access/smtp-mailer';
import type { EmailRenderer } from '../rendering/render-email';
import { templateScope, type ScopeContact } from '../rendering/template-scope';

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;');

/**
 * The preview text as the hidden preheader: the first text of the body, which mail clients show
 * beside the subject, invisible in the opened email. Placed right after <body> when there is one.
 */
export function withPreheader(html: string, previewText: string): string {
  if (!previewText) return html;
  const preheader =
    `<div style="display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all">` +
    `${escapeHtml(previewText)}</div>`;
  const body = /<body[^>]*>/i.exec(html);
  if (!body) return preheader + html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + preheader + html.slice(at);
}

/**
 * Renders a campaign's content for one recipient with the workflows' renderer (Liquid, escaping,
 * `default:` fallbacks, the unsubscribe link always present) and adds the RFC 8058 headers.
 * Throws RenderError for a template that cannot be rendered.
 */
export async function renderCampaignEmail(
  renderer: EmailRenderer,
  input: { content: CampaignContent; contact: ScopeContact; unsubscribeUrl: string; messageId: string },
): Promise<OutgoingEmail> {
  const { content, contact, unsubscribeUrl } = input;
  const scope = templateScope({ contact, event: { name: '', properties: {} }, fallbacks: {}, unsubscribeUrl });
  const step = { id: 'campaign', type: 'email' as const, subject: content.subject, html: content.html, ...(content.text === null ? {} : { text: content.text }) };
  const rendered = await renderer.render(step, scope, unsubscribeUrl);
  return {
    to: contact.email,
    subject: rendered.subject,
    html: withPreheader(rendered.html ?? '', content.preview_text),
    text: rendered.text,
    messageId: input.messageId,
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    ...(content.from_address ? { from: { name: content.from_name ?? undefined, address: content.from_address } } : {}),
  };
}
