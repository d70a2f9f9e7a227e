import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { errorMiddleware, healthRoutes, notFoundHandler, requestId, type Pool, type Redis } from '@mailer/shared';

export interface GatewayAppDeps {
  logger: Logger;
  pool: Pool;
  redis: Redis;
}

/** The gateway's public app (both listeners share it; routes decide by path). */
export function buildApp(deps: GatewayAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId());
  app.use(
    healthRoutes('gateway', [
      { name: 'postgres', check: async () => void (await deps.pool.query('SELECT 1')) },
      { name: 'redis', check: async () => void (await deps.redis.ping()) },
    ]),
  );
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger));
  return app;
}
