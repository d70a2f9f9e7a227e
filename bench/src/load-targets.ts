import { randomInt } from 'node:crypto';
import type { HttpRequestSpec, LoadTarget } from './closed-loop';
import { seededEmail, type SeededContacts } from './seed-contacts';
import { BENCH_DOMAIN } from './start-stack';

/** An event name no workflow listens to: ingest is measured, not email. */
export const UNMATCHED_EVENT = 'bench_page_view';

export interface Targets {
  baselineA: LoadTarget;
  getContact: LoadTarget;
  createContact: LoadTarget;
  ingestEvent: LoadTarget;
}

/** The requests of each closed-loop scenario, each made fresh per call. */
export function loadTargets(options: {
  baselineUrl: string;
  apiUrl: string;
  eventsUrl: string;
  apiKey: string;
  runId: string;
  seeded: SeededContacts;
}): Targets {
  const { seeded } = options;
  const auth = { authorization: `Bearer ${options.apiKey}` };
  const json = { ...auth, 'content-type': 'application/json' };
  let created = 0;
  let ingested = 0;
  const randomSeededId = () => randomInt(seeded.firstId, seeded.lastId + 1);
  const getContact = (): HttpRequestSpec => ({
    method: 'GET',
    path: `/api/v1/contacts/${randomSeededId()}`,
    headers: auth,
  });
  return {
    baselineA: {
      name: 'baseline A',
      baseUrl: options.baselineUrl,
      next: () => ({ method: 'GET', path: '/contact', headers: {} }),
    },
    getContact: { name: 'GET contact', baseUrl: options.apiUrl, next: getContact },
    createContact: {
      name: 'POST contact',
      baseUrl: options.apiUrl,
      next: () => ({
        method: 'POST',
        path: '/api/v1/contacts',
        headers: json,
        body: JSON.stringify({
          email: `new${++created}.${options.runId}@${BENCH_DOMAIN}`,
          first_name: `New${created}`,
          subscribed: true,
          tags: ['bench'],
        }),
      }),
    },
    ingestEvent: {
      name: 'POST event',
      baseUrl: options.eventsUrl,
      next: () => ({
        method: 'POST',
        path: '/v1/events',
        headers: json,
        body: JSON.stringify({
          event: UNMATCHED_EVENT,
          email: seededEmail(randomInt(1, seeded.count + 1)),
          properties: { page: '/pricing', n: ++ingested },
        }),
      }),
    },
  };
}
