import type { ParsedMail } from 'mailparser';
import type { StoredMessage } from './message-store';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Every value that reaches a page goes through this: messages are untrusted input. */
const text = (value: string) => value.replace(/[&<>"']/g, (character) => escapes[character] ?? character);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:.75rem 1rem}header a{color:#fff;text-decoration:none;font-weight:600}
main{max-width:60rem;margin:0 auto;padding:1rem}table{width:100%;border-collapse:collapse;background:#fff}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #d0d7de;overflow-wrap:anywhere}
.card{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:1rem;margin-bottom:1rem}
iframe{width:100%;min-height:24rem;border:1px solid #d0d7de;background:#fff}pre{white-space:pre-wrap;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:.25rem 1rem}dt{font-weight:600;overflow-wrap:anywhere}dd{margin:0;min-width:0;overflow-wrap:anywhere}li,code{overflow-wrap:anywhere}
@media (max-width:40rem){th:nth-child(2),td:nth-child(2){display:none}}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(title)} · Mailer local inbox</title><style>${STYLE}</style></head>
<body><header><a href="/">Mailer local inbox</a></header><main id="main">${body}</main></body></html>`;
}

export function listPage(messages: readonly StoredMessage[]): string {
  const rows = messages
    .map(
      (message) => `<tr><td><a href="/messages/${message.id}">${text(message.subject || '(no subject)')}</a></td>
<td>${text(message.from)}</td><td>${text(message.to)}</td><td><time datetime="${message.receivedAt.toISOString()}">${message.receivedAt.toISOString().replace('T', ' ').slice(0, 19)}</time></td></tr>`,
    )
    .join('\n');
  return page(
    'Inbox',
    `<h1>Inbox</h1><p>Every email the local stack sends lands here instead of going out (no <code>SMTP_URL</code> is set). Newest first; reload to see new ones.</p>
${messages.length === 0 ? '<p class="card">No email yet.</p>' : `<table><thead><tr><th scope="col">Subject</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Received (UTC)</th></tr></thead><tbody>${rows}</tbody></table>`}`,
  );
}

/** Links in the HTML part, so the unsubscribe link (or any other) can be followed from here. */
function linksOf(html: string): string[] {
  return [...new Set([...html.matchAll(/href\s*=\s*"([^"]+)"/gi)].map((match) => (match[1] ?? '').replace(/&amp;/g, '&')))];
}

export function messagePage(message: StoredMessage, parsed: ParsedMail): string {
  const headers = parsed.headerLines.map((line) => {
    const colon = line.line.indexOf(':');
    return `<dt>${text(line.line.slice(0, colon))}</dt><dd>${text(line.line.slice(colon + 1).trim())}</dd>`;
  });
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const links = linksOf(html).map((href) => `<li><a href="${text(href)}">${text(href)}</a></li>`);
  return page(
    message.subject || '(no subject)',
    `<h1>${text(message.subject || '(no subject)')}</h1>
<div class="card"><dl><dt>From</dt><dd>${text(message.from)}</dd><dt>To</dt><dd>${text(message.to)}</dd><dt>Received</dt><dd>${message.receivedAt.toISOString()}</dd></dl>
<p><a href="/messages/${message.id}/raw">Download .eml</a></p></div>
<section class="card"><h2>HTML</h2>${html ? `<iframe title="HTML part" sandbox="allow-popups allow-popups-to-escape-sandbox" src="/messages/${message.id}/html"></iframe>` : '<p>No HTML part.</p>'}</section>
<section class="card"><h2>Links</h2>${links.length ? `<ul>${links.join('')}</ul>` : '<p>No links.</p>'}</section>
<section class="card"><h2>Text</h2><pre>${text(parsed.text ?? '')}</pre></section>
<section class="card"><h2>Headers</h2><dl>${headers.join('')}</dl></section>`,
  );
}

export const notFoundPage = () => page('Not found', '<h1>Not found</h1><p>No such message (the inbox keeps the newest ones only).</p><p><a href="/">Back to the inbox</a></p>');
