import express, { Router } from 'express';
import {
  AppError,
  UNMATCHED_ROUTE,
  createMetricsRegistry,
  errorMiddleware,
  httpMetrics,
  listen,
  metricsRoutes,
  notFoundHandler,
  type Registry,
  type RunningServer,
} from '@mailer/shared';
import { metricValue, parseMetrics, scrapeMetrics } from '@mailer/testing';
import { memoryLogger } from './helpers';

describe('httpMetrics and GET /metrics', () => {
  const { logger } = memoryLogger();
  let server: RunningServer;
  let registry: Registry;

  beforeAll(async () => {
    registry = createMetricsRegistry('contacts');
    const app = express();
    app.use(httpMetrics(registry));
    app.use(metricsRoutes(registry));
    const contacts = Router();
    contacts.get('/', (_req, res) => void res.json({ data: [] }));
    contacts.get('/:id', (req, res) => void res.json({ id: req.params.id }));
    contacts.delete('/:id', () => {
      throw new AppError('CONTACT.NOT_FOUND', 'contact not found');
    });
    app.use('/api/v1/contacts', contacts);
    // A mounted middleware that answers without a route (the gateway's proxy does this).
    app.use('/api/v1/campaigns', (_req, res) => void res.status(502).json({ error: 'upstream down' }));
    app.use(notFoundHandler());
    app.use(errorMiddleware(logger, { 'CONTACT.NOT_FOUND': 404 }));
    server = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  const get = (path: string, init?: RequestInit) =>
    fetch(server.url + path, init).then((response) => response.status);

  it('counts requests by route template and status, never by the raw URL with its id', async () => {
    expect(await get('/api/v1/contacts/101')).toBe(200);
    expect(await get('/api/v1/contacts/202')).toBe(200);
    expect(await get('/api/v1/contacts/303', { method: 'DELETE' })).toBe(404);
    expect(await get('/api/v1/contacts?page=2')).toBe(200);
    const text = await scrapeMetrics(server.url);
    expect(
      metricValue(text, 'http_requests_total', {
        method: 'GET',
        route: '/api/v1/contacts/:id',
        status: '200',
      }),
    ).toBe(2);
    // The route threw, the error middleware (outside the router) answered: the template is still the route's.
    expect(
      metricValue(text, 'http_requests_total', {
        method: 'DELETE',
        route: '/api/v1/contacts/:id',
        status: '404',
      }),
    ).toBe(1);
    expect(
      metricValue(text, 'http_requests_total', { method: 'GET', route: '/api/v1/contacts', status: '200' }),
    ).toBe(1);
    expect(text).not.toMatch(/route="[^"]*(101|202|303|page)/);
  });

  it('labels a request no route matched as unmatched, and a mounted middleware by its prefix', async () => {
    expect(await get('/api/v1/nothing/42')).toBe(404);
    expect(await get('/wp-admin/9f8e7d6c5b4a39281706f5e4d3c2b1a0')).toBe(404);
    expect(await get('/api/v1/campaigns/7')).toBe(502);
    const text = await scrapeMetrics(server.url);
    expect(metricValue(text, 'http_requests_total', { route: UNMATCHED_ROUTE, status: '404' })).toBe(2);
    expect(metricValue(text, 'http_requests_total', { route: '/api/v1/campaigns', status: '502' })).toBe(1);
    expect(text).not.toContain('wp-admin');
  });

  it('times every request in a histogram whose count equals the requests counted', async () => {
    for (let i = 0; i < 3; i++) expect(await get(`/api/v1/contacts/${i + 500}`)).toBe(200);
    const samples = parseMetrics(await scrapeMetrics(server.url));
    const labels = { method: 'GET', route: '/api/v1/contacts/:id', status: '200' };
    const matching = (name: string) =>
      samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    const [count] = matching('http_request_duration_seconds_count');
    const [total] = matching('http_requests_total');
    expect(count?.value).toBe(total?.value);
    expect(count?.value).toBeGreaterThanOrEqual(5);
    const infBucket = matching('http_request_duration_seconds_bucket').find((s) => s.labels.le === '+Inf');
    expect(infBucket?.value).toBe(count?.value);
    expect(matching('http_request_duration_seconds_sum')[0]?.value).toBeGreaterThan(0);
  });

  it('serves the Prometheus text format with the service label and process metrics', async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(metricValue(text, 'process_resident_memory_bytes', { service: 'contacts' })).toBeGreaterThan(0);
    expect(parseMetrics(text).every((sample) => sample.labels.service === 'contacts')).toBe(true);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let server: RunningServer;

  beforeAll(async () => {
    const app = express();
    app.use(metricsRoutes(createMetricsRegistry('campaigns'), 'scrape-token-0123456789'));
    server = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  it('answers 401 without the bearer token or with a wrong one, and the metrics with it', async () => {
    const scrape = (authorization?: string) => fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
    const anonymous = await scrape();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: expect.stringMatching(/METRICS_TOKEN/) });
    expect((await scrape('Bearer scrape-token-0123456788')).status).toBe(401);
    const allowed = await scrape('Bearer scrape-token-0123456789');
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toMatch(/^# HELP /m);
  });
});
