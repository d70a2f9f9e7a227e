// Baseline A, run as its own process so it is measured like a service: a bare node:http server
// doing one `SELECT ... FROM contacts WHERE id = $1` through a pg pool (the services' pool size)
// on the seeded contacts table, for a random seeded id. The stack's figures are read as ratios
// against this, measured on the same machine in the same run.
import { randomInt } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { reportOnce, required, sendJson } from './baseline-process';

const firstId = Number(required('BASELINE_FIRST_ID'));
const lastId = Number(required('BASELINE_LAST_ID'));
const pool = new pg.Pool({ connectionString: required('BASELINE_DATABASE_URL'), max: 10 });

const server = http.createServer((req, res) => {
  if (req.url === '/readyz') return sendJson(res, 200, '{"status":"ready"}');
  pool
    .query(
      'SELECT id, email, first_name, last_name, subscribed, bounced, custom_properties FROM contacts WHERE id = $1',
      [randomInt(firstId, lastId + 1)],
    )
    .then(
      ({ rows }) => sendJson(res, rows.length === 1 ? 200 : 404, JSON.stringify({ data: rows[0] ?? null })),
      (error: Error) => {
        reportOnce(error.message);
        sendJson(res, 500, JSON.stringify({ error: error.message }));
      },
    );
});

server.keepAliveTimeout = 65_000;
server.listen(Number(required('PORT')), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
});
