import type { StartedTestContainer } from 'testcontainers';

export interface StartedContainers {
  postgresUrl?: string;
  redisUrl?: string;
  amqpUrl?: string;
  rabbitmq?: StartedTestContainer;
  stop(): Promise<void>;
}

/**
 * Starts the servers the environment does not name, with testcontainers (a laptop with Docker and
 * nothing else). Loaded lazily: a run against local servers never touches Docker.
 */
export async function startContainers(wanted: { postgres: boolean; redis: boolean; rabbitmq: boolean }): Promise<StartedContainers> {
  const started: StartedTestContainer[] = [];
  const result: StartedContainers = {
    stop: async () => {
      await Promise.all(started.map((container) => container.stop()));
    },
  };
  if (!wanted.postgres && !wanted.redis && !wanted.rabbitmq) return result;
  const { GenericContainer, Wait } = await import('testcontainers');
  const jobs: Promise<void>[] = [];
  if (wanted.postgres) {
    jobs.push(
      new GenericContainer('postgres:16-alpine')
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start()
        .then((container) => {
          started.push(container);
          result.postgresUrl = `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
        }),
    );
  }
  if (wanted.redis) {
    jobs.push(
      new GenericContainer('redis:7-alpine')
        .withExposedPorts(6379)
        .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
        .start()
        .then((container) => {
          started.push(container);
          result.redisUrl = `redis://${container.getHost()}:${container.getMappedPort(6379)}`;
        }),
    );
  }
  if (wanted.rabbitmq) {
    jobs.push(
      new GenericContainer('rabbitmq:3.13-alpine')
        .withExposedPorts(5672)
        .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
        .withStartupTimeout(120_000)
        .start()
        .then((container) => {
          started.push(container);
          result.rabbitmq = container;
          result.amqpUrl = `amqp://guest:guest@${container.getHost()}:${container.getMappedPort(5672)}`;
        }),
    );
  }
  await Promise.all(jobs);
  return result;
}
