import type http from 'node:http';

/** What every baseline process reads from its environment: a missing value stops it at start. */
export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const reported = new Set<string>();

/** Each distinct failure once on stderr: the benchmark counts the failed requests, this says why. */
export function reportOnce(message: string): void {
  if (reported.has(message)) return;
  reported.add(message);
  process.stderr.write(`${message}\n`);
}

/** A JSON answer with its length, as the baselines give every answer. */
export function sendJson(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
