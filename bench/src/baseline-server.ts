// Baseline A, run as its own process so it is measured like a service: a bare node:http server
// doing one `SELECT ... FROM contacts WHERE id = $1` through a pg pool (the services' pool size)
// on the seeded contacts table, for a random seeded id. The stack's figures are read as ratios
// against this, measured on the same machine in the same run.
import { randomInt } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const required = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const firstId = Number(required('BASELINE_FIRST_ID'));
const lastId = Number(required('BASELINE_LAST_ID'));
const pool = new pg.Pool({ connectionString: required('BASELINE_DATABASE_URL'), max: 10 });

// Each distinct failure once on stderr: the benchmark flags the 500s, this says why.
const reported = new Set<string>();
function reportOnce(message: string): void {
  if (reported.has(message)) return;
  reported.add(message);
  process.stderr.write(`${message}\n`);
}

function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer((req, res) => {
  if (req.url === '/readyz') return send(res, 200, '{"status":"ready"}');
  pool
    .query(
      'SELECT id, email, first_name, last_name, subscribed, bounced, custom_properties FROM contacts WHERE id = $1',
      [randomInt(firstId, lastId + 1)],
    )
    .then(
      ({ rows }) => send(res, rows.length === 1 ? 200 : 404, JSON.stringify({ data: rows[0] ?? null })),
      (error: Error) => {
        reportOnce(error.message);
        send(res, 500, JSON.stringify({ error: error.message }));
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
