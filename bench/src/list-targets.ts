import { randomInt } from 'node:crypto';
import type { HttpRequestSpec, LoadTarget } from './closed-loop';

/**
 * The contact list's reads through the gateway on the seeded account: the first page of 100, a
 * search, and a deep page of a filter. The search is `seed` and a random four-digit number, a
 * substring of about 11 of 100k seeded addresses (`seed1234@`, `seed12340@` … `seed12349@`).
 */
export function listTargets(options: { apiUrl: string; apiKey: string }): LoadTarget[] {
  const get = (path: () => string) => (): HttpRequestSpec => ({
    method: 'GET',
    path: path(),
    headers: { authorization: `Bearer ${options.apiKey}` },
  });
  return [
    {
      name: 'GET contacts 100/page',
      baseUrl: options.apiUrl,
      next: get(() => '/api/v1/contacts?per_page=100'),
    },
    {
      name: 'GET contacts search',
      baseUrl: options.apiUrl,
      next: get(() => `/api/v1/contacts?q=seed${randomInt(1000, 10_000)}`),
    },
    {
      name: 'GET contacts subscribed page 50',
      baseUrl: options.apiUrl,
      next: get(() => '/api/v1/contacts?subscribed=true&page=50'),
    },
  ];
}

/**
 * Records a problem for each target whose request does not answer 200 with at least one contact:
 * a list that finds nothing is measured, but says nothing about the 100k contacts.
 */
export async function checkListAnswers(targets: readonly LoadTarget[], problems: string[]): Promise<void> {
  for (const target of targets) {
    const request = target.next();
    const response = await fetch(`${target.baseUrl}${request.path}`, { headers: request.headers });
    const body = (await response.json()) as { data?: unknown[] };
    if (response.status !== 200 || !body.data?.length) {
      problems.push(
        `${target.name}: ${request.path} answered ${response.status} with ${body.data?.length ?? 'no'} contacts`,
      );
    }
  }
}
