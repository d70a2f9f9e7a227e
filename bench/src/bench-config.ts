/** The knobs of one run, read from the environment (README lists them). */
export interface BenchConfig {
  rounds: number;
  secondsPerScenario: number;
  warmupSeconds: number;
  connections: number;
  contacts: number;
  backlog: number;
  openLoopSeconds: number;
  emailRates: number[];
  emailSeconds: number;
  /** The rate of `bench:focus -- email` (the full run measures each of `emailRates`). */
  focusEmailRatePerS: number;
  stragglerWaitMs: number;
  smtpPoolSize: number;
  /** Automation's SEND_CONCURRENCY; unset, the service's own default (four sends per SMTP connection). */
  sendConcurrency: number | undefined;
  /** Recipients of the campaign scenario (issue #19), and the events per second sent meanwhile. */
  campaignRecipients: number;
  campaignEventsPerS: number;
  /** Processes each of gateway, contacts, events and automation runs as (`--instances N`). */
  instances: number;
  postgresUrl: string;
  redisUrl: string;
  amqpUrl: string;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** `--instances N` on the command line wins over BENCH_INSTANCES. */
function instancesArgument(argv: string[]): string | undefined {
  const at = argv.indexOf('--instances');
  return at >= 0 ? (argv[at + 1] ?? '') : undefined;
}

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): BenchConfig {
  return {
    rounds: positiveInt(env, 'BENCH_ROUNDS', 2),
    secondsPerScenario: positiveInt(env, 'BENCH_SECONDS', 5),
    warmupSeconds: positiveInt(env, 'BENCH_WARMUP_SECONDS', 2),
    connections: positiveInt(env, 'BENCH_CONNECTIONS', 20),
    contacts: positiveInt(env, 'BENCH_CONTACTS', 100_000),
    backlog: positiveInt(env, 'BENCH_BACKLOG', 10_000),
    openLoopSeconds: positiveInt(env, 'BENCH_OPEN_LOOP_SECONDS', 8),
    emailRates: [100, 200],
    emailSeconds: positiveInt(env, 'BENCH_EMAIL_SECONDS', 10),
    focusEmailRatePerS: positiveInt(env, 'BENCH_FOCUS_EMAIL_RATE', 100),
    stragglerWaitMs: 30_000,
    smtpPoolSize: positiveInt(env, 'BENCH_SMTP_POOL_SIZE', 8),
    sendConcurrency: env.BENCH_SEND_CONCURRENCY === undefined ? undefined : positiveInt(env, 'BENCH_SEND_CONCURRENCY', 1),
    campaignRecipients: positiveInt(env, 'BENCH_CAMPAIGN_RECIPIENTS', 100_000),
    campaignEventsPerS: positiveInt(env, 'BENCH_CAMPAIGN_EVENTS_PER_S', 50),
    instances: positiveInt({ BENCH_INSTANCES: instancesArgument(argv) ?? env.BENCH_INSTANCES }, 'BENCH_INSTANCES', 1),
    postgresUrl: env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    amqpUrl: env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  };
}
