import http from 'node:http';
import { simpleParser } from 'mailparser';
import { listPage, messagePage, notFoundPage } from './inbox-pages';
import type { MessageStore } from './message-store';

function send(response: http.ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra });
  response.end(body);
}

/** The inbox pages, a JSON list for scripts, and the raw message; read-only, GET only. */
export function inboxHandler(store: MessageStore) {
  return async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://inbox');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'text/plain', 'GET only', { allow: 'GET, HEAD' });
    if (url.pathname === '/') return send(response, 200, 'text/html', listPage(store.list()));
    if (url.pathname === '/healthz') return send(response, 200, 'application/json', '{"status":"ok"}');
    if (url.pathname === '/api/messages') return send(response, 200, 'application/json', JSON.stringify({ data: store.list() }));
    const match = /^\/messages\/([0-9a-f-]+)(\/html|\/raw)?$/.exec(url.pathname);
    const raw = match ? store.raw(match[1] ?? '') : undefined;
    const message = match ? store.find(match[1] ?? '') : undefined;
    if (!match || raw === undefined || !message) return send(response, 404, 'text/html', notFoundPage());
    if (match[2] === '/raw') return send(response, 200, 'message/rfc822', raw, { 'content-disposition': `attachment; filename="${message.id}.eml"` });
    const parsed = await simpleParser(raw);
    if (match[2] === '/html') {
      // The email's own HTML, sandboxed: no scripts, no same-origin access, shown inside the message page.
      return send(response, 200, 'text/html', typeof parsed.html === 'string' ? parsed.html : '', {
        'content-security-policy': "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline'",
      });
    }
    return send(response, 200, 'text/html', messagePage(message, parsed));
  };
}
