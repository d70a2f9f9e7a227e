import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { IDENTITY_HEADER, signIdentity } from '@mailer/shared';
import { startBaselineA } from './baseline-a';
import type { Cleanup } from './cleanup';
import type { FocusContext } from './focus-context';
import { loadTargets } from './load-targets';
import { percentile, round } from './percentile';
import { databaseUrlOf, seedContacts } from './seed-contacts';
import { SEEDED_CAMPAIGN_ID, seedSegmentHistory } from './seed-segment-history';

/** The target: a preview (count and sample) of a five-condition rule over 100k contacts. */
export const SEGMENT_TARGET_MS = 200;
const WARM_UP = 20;
const PER_ROUND = 100;

/** Five conditions, one of each kind of read: a column, a tag, a property, the event days, a campaign. */
export const FIVE_CONDITION_RULE = {
  match: 'all',
  conditions: [
    { type: 'subscribed', value: true },
    { type: 'tag', op: 'has', tag: 'customer' },
    { type: 'property', key: 'seats', op: 'gt', value: 5 },
    { type: 'event', event: 'login', min_count: 3, days: 30 },
    { type: 'campaign', op: 'opened', campaign_id: SEEDED_CAMPAIGN_ID },
  ],
} as const;

/** The same five in `any`: every condition evaluated for most contacts, the count near all of them. */
const FIVE_CONDITION_ANY = { ...FIVE_CONDITION_RULE, match: 'any' } as const;

type Preview = { data: { count: number; sample: unknown[] } };

async function timed(run: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const figures = (times: number[]) => ({ p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) });

/**
 * Segment evaluation with 100k contacts (tags, properties, event days, engagement seeded): one
 * client in a loop, `POST /internal/v1/segments/preview` of a five-condition rule through the
 * contacts service, interleaved per round with same-run baselines: baseline A's indexed read over
 * HTTP, a plain `count(*)` of the account's contacts (index only) and a count that reads each of
 * their rows (the floor of a rule on any column), both straight on the same database.
 * Latency, not throughput: the target is one preview's answer time.
 */
export async function focusSegment(options: FocusContext & { cleanup: Cleanup }): Promise<string[]> {
  const { config, stack, log } = options;
  const accountId = options.account.accountId;
  const seeded = await seedContacts(stack.env, accountId, config.contacts);
  const history = await seedSegmentHistory(stack.env, accountId, seeded);
  log(`${seeded.count} contacts seeded in ${seeded.seconds.toFixed(1)} s, their segment history in ${history.seconds.toFixed(1)} s`);
  const baseline = await startBaselineA(stack.env, seeded, options.cleanup);
  const { baselineA } = loadTargets({
    baselineUrl: baseline.url, apiUrl: stack.apiUrl, eventsUrl: stack.eventsUrl, apiKey: options.account.apiKey, runId: stack.names.id, seeded,
  });
  const db = new pg.Client({ connectionString: databaseUrlOf(stack.env, 'contacts') });
  await db.connect();
  options.cleanup.add('segment bench client', () => db.end());

  const preview = async (rule: unknown): Promise<Preview> => {
    const url = new URL('/internal/v1/segments/preview', stack.internalUrls.contacts!);
    const body = Buffer.from(JSON.stringify({ rule }));
    const identity = signIdentity({ accountId, requestId: randomUUID() }, { method: 'POST', path: url.pathname, body }, stack.env.INTERNAL_SIGNING_SECRET!);
    const response = await fetch(url, { method: 'POST', headers: { [IDENTITY_HEADER]: identity, 'content-type': 'application/json' }, body });
    if (response.status !== 200) throw new Error(`preview answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Preview;
  };
  const readA = async () => {
    const request = baselineA.next();
    const response = await fetch(`${baselineA.baseUrl}${request.path}`, { method: request.method, headers: request.headers });
    await response.arrayBuffer();
  };
  const count = async () => void (await db.query('SELECT count(*) FROM contacts WHERE account_id = $1', [accountId]));
  // The floor of any rule that reads a column: one pass over the account's rows in the heap.
  const heapPass = async () => void (await db.query('SELECT count(*) FROM contacts WHERE account_id = $1 AND first_name IS NOT NULL', [accountId]));

  const problems: string[] = [];
  for (const [name, rule] of [['all', FIVE_CONDITION_RULE], ['any', FIVE_CONDITION_ANY]] as const) {
    const answer = await preview(rule);
    log(`rule (${name} of five): ${answer.data.count} of ${seeded.count} contacts`);
    if (answer.data.count === 0 || answer.data.sample.length !== 10) problems.push(`the ${name}-rule preview found ${answer.data.count} contacts, sample ${answer.data.sample.length}`);
  }
  const runs = {
    'preview all-of-five': () => preview(FIVE_CONDITION_RULE).then(() => undefined),
    'preview any-of-five': () => preview(FIVE_CONDITION_ANY).then(() => undefined),
    'baseline A (GET by id, HTTP)': readA,
    'count(*) of the account (pg, index only)': count,
    'heap pass over the account (pg)': heapPass,
  };
  const times = new Map(Object.keys(runs).map((name) => [name, [] as number[]]));
  for (const run of Object.values(runs)) for (let i = 0; i < WARM_UP; i += 1) await run();
  for (let roundNo = 0; roundNo < config.rounds; roundNo += 1) {
    await options.settler.before(`segment round ${roundNo + 1}`);
    for (const [name, run] of Object.entries(runs)) for (let i = 0; i < PER_ROUND; i += 1) times.get(name)!.push(await timed(run));
  }
  for (const [name, measured] of times) {
    const { p50, p99 } = figures(measured);
    log(`${name}: p50 ${p50} ms, p99 ${p99} ms (${measured.length} requests)`);
  }
  const all = figures(times.get('preview all-of-five')!);
  const verdict = all.p99 < SEGMENT_TARGET_MS ? 'met' : 'MISSED';
  log(`target: segment preview (five conditions, ${seeded.count} contacts) under ${SEGMENT_TARGET_MS} ms: p99 ${all.p99} ms, ${verdict}`);
  return problems;
}
