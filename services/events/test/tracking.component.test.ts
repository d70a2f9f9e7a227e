import { Broker, createLogger, emailClickedV1, emailOpenedV1, QUEUES, signTrackingToken, trackingSecret, type MessageOf, type TrackedEmail } from '@mailer/shared';
import { testServers, waitFor } from '@mailer/testing';
import { newAccountId, startEventsHarness, startEventsHarnessWithCuttableBroker, type EventsHarness } from './support/events-harness';

type Hit = MessageOf<typeof emailOpenedV1> | MessageOf<typeof emailClickedV1>;

const READER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const LINK = 'https://shop.example/offer?utm_source=news&x=1';

/** An email rendered `ageS` seconds ago: older than the scanner window unless told otherwise. */
const emailOf = (accountId: number, ageS = 60, which: Partial<TrackedEmail> = { campaignId: 7 }): TrackedEmail => ({
  accountId,
  contactId: 42,
  sentAt: Math.floor(Date.now() / 1000) - ageS,
  ...which,
});

describe('tracking URLs at the events service: GET /t/c/:token and /t/o/:token', () => {
  let harness: EventsHarness;
  let observer: Broker;
  let secret: string;
  const hits: Hit[] = [];

  beforeAll(async () => {
    harness = await startEventsHarness();
    secret = trackingSecret(undefined, harness.env.INTERNAL_SIGNING_SECRET!);
    observer = Broker.start({ url: testServers().amqpUrl, namespace: harness.env.BROKER_NAMESPACE!, logger: createLogger('tracking-test', { level: 'silent' }), connectionName: 'tracking-test' });
    observer.consume({
      queue: QUEUES.automationEngagement.name,
      contracts: [emailOpenedV1, emailClickedV1],
      handle: async (message) => void hits.push(message.payload),
    });
    await observer.ready();
  });
  afterAll(async () => {
    await observer?.close();
    await harness?.stop();
  });

  const get = (path: string, userAgent: string | undefined = READER, method = 'GET') =>
    fetch(`${harness.service.url}${path}`, { method, redirect: 'manual', headers: userAgent === undefined ? {} : { 'user-agent': userAgent } });
  const clickToken = (email: TrackedEmail, url = LINK, link = 1) => signTrackingToken({ kind: 'click', email, url, link }, secret);
  const openToken = (email: TrackedEmail) => signTrackingToken({ kind: 'open', email }, secret);
  const hitsOf = (accountId: number) => hits.filter((hit) => hit.account_id === accountId);
  /** A valid open on its own account, awaited: every hit published before it has arrived by then. */
  const settle = async () => {
    const sentinel = newAccountId();
    expect((await get(`/t/o/${openToken(emailOf(sentinel))}`)).status).toBe(200);
    await waitFor(() => (hitsOf(sentinel).length > 0 ? true : undefined), { what: 'the sentinel hit' });
  };

  it('redirects a click to the URL sealed in its token, ignoring any query, and publishes email.clicked.v1 once', async () => {
    const account = newAccountId();
    const email = emailOf(account);
    const response = await get(`/t/c/${clickToken(email)}?url=https://evil.example/`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(LINK);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store, max-age=0');
    const [hit] = await waitFor(() => (hitsOf(account).length > 0 ? hitsOf(account) : undefined), { what: 'the click' });
    expect(hit).toEqual({
      hit_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      account_id: account,
      contact_id: 42,
      campaign_id: 7,
      sent_at: new Date(email.sentAt * 1000).toISOString(),
      occurred_at: expect.any(String),
      machine: false,
      url: LINK,
      link: 1,
    });
    await settle();
    expect(hitsOf(account)).toHaveLength(1);
  });

  it('answers the pixel as a 1×1 GIF, never cached, and publishes email.opened.v1 naming the workflow step', async () => {
    const account = newAccountId();
    const response = await get(`/t/o/${openToken(emailOf(account, 60, { workflowId: 3, stepId: 'welcome' }))}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(response.headers.get('cache-control')).toBe('no-store, max-age=0');
    const gif = Buffer.from(await response.arrayBuffer());
    expect(gif.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect([gif.readUInt16LE(6), gif.readUInt16LE(8)]).toEqual([1, 1]);
    const [hit] = await waitFor(() => (hitsOf(account).length > 0 ? hitsOf(account) : undefined), { what: 'the open' });
    expect(hit).toMatchObject({ account_id: account, workflow_id: 3, step: 'welcome', machine: false });
    expect(hit).not.toHaveProperty('campaign_id');
    expect(hit).not.toHaveProperty('url');
  });

  it('marks a machine hit: within 10 s of the send, a scanner or script, no User-Agent, or a HEAD probe (recorded, not dropped)', async () => {
    const cases: Array<[string, TrackedEmail, string | undefined, string]> = [];
    const accounts = Array.from({ length: 5 }, () => newAccountId());
    cases.push(['fresh', emailOf(accounts[0]!, 2), READER, 'GET']);
    cases.push(['scanner', emailOf(accounts[1]!), 'Mozilla/5.0 (compatible; Barracuda Sentinel)', 'GET']);
    cases.push(['script', emailOf(accounts[2]!), 'python-requests/2.31', 'GET']);
    cases.push(['anonymous', emailOf(accounts[3]!), '', 'GET']);
    cases.push(['probe', emailOf(accounts[4]!), READER, 'HEAD']);
    for (const [, email, agent, method] of cases) expect((await get(`/t/c/${clickToken(email)}`, agent, method)).status).toBe(302);
    await settle();
    expect(accounts.map((account) => hitsOf(account).map((hit) => hit.machine))).toEqual([[true], [true], [true], [true], [true]]);
  });

  it('answers a forged, altered, re-signed, truncated or wrong-kind token with a 404 page: no Location, nothing published', async () => {
    const account = newAccountId();
    const good = clickToken(emailOf(account));
    const flipped = Buffer.from(good, 'base64url');
    flipped[20] = flipped[20]! ^ 0x01;
    const bad = [
      `/t/c/${flipped.toString('base64url')}`,
      `/t/c/${signTrackingToken({ kind: 'click', email: emailOf(account), url: 'https://evil.example/', link: 0 }, 'another-secret-entirely-32-chars-x')}`,
      `/t/c/${good.slice(0, -4)}`,
      `/t/c/${good}x`,
      `/t/o/${good}`,
      `/t/c/${openToken(emailOf(account))}`,
      '/t/c/not-a-token',
      `/t/c/${'A'.repeat(9000)}`,
    ];
    for (const path of bad) {
      const response = await get(path);
      expect([path.slice(0, 40), response.status]).toEqual([path.slice(0, 40), 404]);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('Link not valid');
    }
    await settle();
    expect(hitsOf(account)).toEqual([]);
  });
});

describe('tracking URLs while the broker is away', () => {
  it('still redirects and answers the pixel at once (the hit is lost and logged, the reader is not)', async () => {
    const { harness, proxy, stop } = await startEventsHarnessWithCuttableBroker();
    try {
      const secret = trackingSecret(undefined, harness.env.INTERNAL_SIGNING_SECRET!);
      proxy.cut();
      await waitFor(() => (harness.service.broker.isConnected() ? undefined : true), { what: 'broker disconnect' });
      const email = emailOf(newAccountId());
      const started = Date.now();
      const click = await fetch(`${harness.service.url}/t/c/${signTrackingToken({ kind: 'click', email, url: LINK, link: 0 }, secret)}`, { redirect: 'manual' });
      expect(click.status).toBe(302);
      expect(click.headers.get('location')).toBe(LINK);
      const pixel = await fetch(`${harness.service.url}/t/o/${signTrackingToken({ kind: 'open', email }, secret)}`);
      expect(pixel.status).toBe(200);
      // Answered without waiting for a publish confirm that cannot come.
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await stop();
    }
  }, 60_000);
});
