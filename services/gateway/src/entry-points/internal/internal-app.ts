import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { errorMiddleware, healthRoutes, jsonBody, notFoundHandler, requestId, requireIdentity, traceRequests, type Pool } from '@mailer/shared';
import { gatewayStatusByCode } from '../../domain/gateway.errors';
import { internalKeysRoutes, type InternalKeysDeps } from './api-keys.routes';
import { internalUsersRoutes, type InternalUsersDeps } from './users.routes';
import { passwordResetRoutes, type PasswordResetDeps } from './password-resets.routes';

export interface InternalAppDeps extends InternalUsersDeps, InternalKeysDeps, PasswordResetDeps {
  logger: Logger;
  pool: Pool;
  signingSecret: string;
}

/**
 * The gateway's internal listener (GATEWAY_INTERNAL_PORT, loopback unless GATEWAY_INTERNAL_HOST
 * says otherwise): the account app's way to the users, account and API keys in the gateway's
 * database. Every route needs the signed identity; none is reachable from the public listeners.
 */
export function buildInternalApp(deps: InternalAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId());
  app.use(traceRequests('gateway'));
  app.use(healthRoutes('gateway-internal', [{ name: 'postgres', check: async () => void (await deps.pool.query('SELECT 1')) }]));
  app.use('/internal/v1', requireIdentity(deps.signingSecret), jsonBody('16kb'));
  app.use('/internal/v1', internalUsersRoutes(deps));
  app.use('/internal/v1', passwordResetRoutes(deps));
  app.use('/internal/v1', internalKeysRoutes(deps));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger, gatewayStatusByCode));
  return app;
}
