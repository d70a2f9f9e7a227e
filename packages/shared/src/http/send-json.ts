import type { ServerResponse } from 'node:http';

/**
 * A JSON answer as Express's `res.json` writes it, for listeners that answer without Express. The
 * body goes as a string, so it leaves in one write with the headers.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
