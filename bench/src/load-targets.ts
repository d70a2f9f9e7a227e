import { randomInt } from 'node:crypto';
import type { HttpRequestSpec, LoadTarget } from './closed-loop';
import { seededEmail, type SeededContacts } from './seed-contacts';
import { BENCH_DOMAIN } from './start-stack';

/** An event name no workflow listens to: ingest is measured, not email. */
export const UNMATCHED_EVENT = 'bench_page_view';

/** The stack's closed-loop scenarios and baseline A. */
export interface ScenarioTargets {
  baselineA: LoadTarget;
  getContact: LoadTarget;
  createContact: LoadTarget;
  ingestEvent: LoadTarget;
}

/** Every closed-loop target of the full run: the scenarios and each one's fair baseline. */
export interface Targets extends ScenarioTargets {
  baselineA2: LoadTarget;
  baselineE: LoadTarget;
  baselineE2: LoadTarget;
}

/** Where the same-run baselines listen (closed-loop-baselines), and how E's queue is emptied after a run. */
export interface BaselineUrls {
  a: string;
  a2: string;
  e: string;
  e2: string;
  purgeIngress: () => Promise<void>;
}

/** The requests of each closed-loop scenario, each made fresh per call. */
export function loadTargets(options: {
  baselineUrl: string;
  apiUrl: string;
  eventsUrl: string;
  apiKey: string;
  runId: string;
  seeded: SeededContacts;
}): ScenarioTargets {
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

/**
 * The scenarios' targets with A2, E and E2 added: A2 is sent A's requests, E and E2 the very
 * requests of the stack's ingest (the same bytes in, their work aside); a run against E or E2 is
 * followed by emptying E's queue.
 */
export function withFairBaselines(targets: ScenarioTargets, baselines: BaselineUrls): Targets {
  const afterRun = baselines.purgeIngress;
  return {
    ...targets,
    baselineA2: { name: 'baseline A2', baseUrl: baselines.a2, next: targets.baselineA.next },
    baselineE: { name: 'baseline E', baseUrl: baselines.e, next: targets.ingestEvent.next, afterRun },
    baselineE2: { name: 'baseline E2', baseUrl: baselines.e2, next: targets.ingestEvent.next, afterRun },
  };
}
