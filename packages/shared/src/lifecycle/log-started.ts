import type { Logger } from 'pino';

/** A server URL as an operator may see it: no password, no query. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * The one line a service prints once it is up: where it listens and what it talks to, so a person
 * reading `npm start` sees every service's address and every server it depends on.
 */
export function logStarted(logger: Logger, service: string, listening: string[], connects: Record<string, string | undefined>): void {
  const servers = Object.fromEntries(Object.entries(connects).flatMap(([name, url]) => (url ? [[name, redactUrl(url)]] : [])));
  const summary = Object.entries(servers)
    .map(([name, url]) => `${name} ${url}`)
    .join(', ');
  logger.info({ listening, connects: servers }, `${service} listening on ${listening.join(' and ')}; using ${summary}`);
}
