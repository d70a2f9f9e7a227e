// `npm run bench -w services/contacts`: list, get and create throughput of the real service (in
// process, real Postgres/Redis/RabbitMQ) with 100k contacts in one account. Not a test: it prints
// numbers. DNS answers come from a loopback test server (then from the Redis cache), never the internet.
const { randomBytes, randomInt, randomUUID } = require('node:crypto');
const http = require('node:http');
const autocannon = require('autocannon');
const pg = require('pg');
const { createLogger, signIdentity, IDENTITY_HEADER } = require('@mailer/shared');
const { startDnsTestServer } = require('@mailer/shared/testing');
const { loadContactsConfig } = require('../dist/config');
const { contactsDatabaseUrl } = require('../dist/database');
const { startContactsService } = require('../dist/contacts-service');

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECRET = randomBytes(24).toString('hex');
const ACCOUNT = randomInt(1, 2 ** 31);

const signed = () => ({
  [IDENTITY_HEADER]: signIdentity({ accountId: ACCOUNT, requestId: randomUUID() }, SECRET),
});

async function seed(pool) {
  const started = Date.now();
  // One statement: generate_series writes 100k rows in a few seconds, no client round trips.
  const { rows } = await pool.query(
    `INSERT INTO contacts (account_id, email, first_name, subscribed, bounced, source, custom_properties)
     SELECT $1, 'bench' || g || '@bench.mx.test', 'Name' || g, g % 2 = 0, g % 50 = 0, 'bench', jsonb_build_object('n', g)
     FROM generate_series(1, $2::int) AS g RETURNING id`,
    [ACCOUNT, CONTACTS],
  );
  // What autovacuum would do after a bulk load: statistics and the visibility map (index-only scans).
  await pool.query('VACUUM ANALYZE contacts');
  const ids = rows.map((row) => row.id);
  return { ids, seconds: (Date.now() - started) / 1000 };
}

async function measure(name, url, setupRequest, method = 'GET') {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [{ method, setupRequest }],
  });
  return {
    scenario: name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    requests: result.requests.total,
    'non-2xx': result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Baseline measured in the same run: a bare node:http server doing one `SELECT ... WHERE id = $1`
 * through a pg pool on the same table. Machines here are shared and noisy, so the service's figures
 * are read as ratios against this, not as absolute numbers.
 */
async function startBaseline(pool, ids) {
  const server = http.createServer(async (req, res) => {
    const { rows } = await pool.query('SELECT id, email, first_name FROM contacts WHERE id = $1', [
      ids[randomInt(0, ids.length)],
    ]);
    const body = JSON.stringify({ data: rows[0] });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function main() {
  const dns = await startDnsTestServer();
  const env = {
    ...process.env,
    DB_PREFIX: `mailer_bench_${randomBytes(3).toString('hex')}_`,
    BROKER_NAMESPACE: `bench${randomBytes(3).toString('hex')}.`,
    INTERNAL_SIGNING_SECRET: SECRET,
    DNS_SERVERS: dns.address,
    LOG_LEVEL: 'warn',
    PORT: '0',
  };
  delete env.DATABASE_URL;
  const config = loadContactsConfig(env);
  const service = await startContactsService(config, createLogger('contacts-bench', { level: 'warn' }));
  const databaseUrl = contactsDatabaseUrl(config);
  try {
    await service.broker.ready();
    const { ids, seconds } = await seed(service.pool);
    console.log(
      `seeded ${ids.length} contacts in account ${ACCOUNT} in ${seconds.toFixed(1)} s; ${DURATION_S} s per scenario, ${CONNECTIONS} connections`,
    );
    const base = `${service.url}/api/v1/contacts`;
    const pages = Math.ceil(ids.length / 25);
    const rows = [];
    const baseline = await startBaseline(service.pool, ids);
    rows.push(await measure('baseline: node:http + pg SELECT by id', baseline.url, (req) => req));
    await baseline.close();
    rows.push(
      await measure('list (25/page, random page)', base, (req) => ({
        ...req,
        path: `/api/v1/contacts?page=${randomInt(1, pages + 1)}`,
        headers: signed(),
      })),
    );
    rows.push(
      await measure('list q= (trigram search)', base, (req) => ({
        ...req,
        path: `/api/v1/contacts?q=bench${randomInt(100, 1000)}1&per_page=25`,
        headers: signed(),
      })),
    );
    rows.push(
      await measure('get by id', base, (req) => ({
        ...req,
        path: `/api/v1/contacts/${ids[randomInt(0, ids.length)]}`,
        headers: signed(),
      })),
    );
    rows.push(
      await measure(
        'create (DNS cached)',
        base,
        (req) => ({
          ...req,
          path: '/api/v1/contacts',
          headers: { ...signed(), 'content-type': 'application/json' },
          body: JSON.stringify({
            email: `new.${randomUUID()}@bench.mx.test`,
            tags: ['bench'],
            subscribed: true,
          }),
        }),
        'POST',
      ),
    );
    const baselineRate = rows[0]['req/s'];
    for (const row of rows) row['vs baseline'] = `${((100 * row['req/s']) / baselineRate).toFixed(0)}%`;
    console.table(rows);
  } finally {
    await service.stop();
    await dns.close();
    const maintenance = new URL(databaseUrl);
    const name = decodeURIComponent(maintenance.pathname.slice(1));
    maintenance.pathname = '/postgres';
    const client = new pg.Client({ connectionString: maintenance.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await client.end();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
