import type { Logger } from 'pino';
import { ConfigError } from '../config/load-config';

/** What a started service hands back: how to stop it gracefully. */
export interface StartedService {
  stop(): Promise<void>;
}

const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * Starts a service and owns its process: a bad environment exits 1 naming every variable at fault;
 * SIGTERM or SIGINT stops it gracefully (stop accepting, drain, close pools) and exits within 10 s
 * whatever happens; an uncaught exception is logged and exits 1 rather than limping on.
 */
export async function runService(logger: Logger, start: () => Promise<StartedService>): Promise<void> {
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception; exiting');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
  let service: StartedService;
  try {
    service = await start();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      logger.fatal({ err: error }, 'service failed to start');
    }
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('graceful shutdown exceeded its deadline; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
