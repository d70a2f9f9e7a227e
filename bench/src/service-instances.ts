// `--instances N`: runs one service as N processes sharing its ports (node:cluster). The benchmark
// starts this in place of the service's main; each worker is the service exactly as deployed, with
// its own connections, consumers and caches, competing with the others through the same Postgres,
// Redis and RabbitMQ, as N replicas behind a load balancer would.
import cluster from 'node:cluster';
import { INSTANCES_READY } from './service-process';

const script = process.env.INSTANCES_SCRIPT;
const count = Number(process.env.INSTANCES_COUNT ?? '1');

if (cluster.isPrimary) {
  if (!script || !Number.isInteger(count) || count < 1) {
    process.stderr.write('service-instances: INSTANCES_SCRIPT and a positive INSTANCES_COUNT are required\n');
    process.exit(2);
  }
  let stopping = false;
  for (let i = 0; i < count; i++) cluster.fork();
  // Ready once every worker listens: before that, the shared port hands connections only to those
  // that already do, and a readiness probe answered by one of them says nothing of the others.
  const listening = new Set<number>();
  cluster.on('listening', (worker) => {
    const before = listening.size;
    listening.add(worker.id);
    if (listening.size === count && before < count) process.stdout.write(`${INSTANCES_READY}\n`);
  });
  // A worker that dies outside a stop ends the run's stack: a benchmark must not quietly go on with fewer.
  cluster.on('exit', (worker, code) => {
    if (!stopping) {
      process.stderr.write(`service-instances: worker ${worker.process.pid} exited with ${code}\n`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.kill('SIGTERM');
      process.exitCode = 1;
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  import(script!).catch((error: unknown) => {
    process.stderr.write(`service-instances: ${String(error)}\n`);
    process.exit(1);
  });
}
