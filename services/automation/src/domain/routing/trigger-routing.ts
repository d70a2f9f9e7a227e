import { AppError, CommonErrorCodes, QueueRouting, type Logger, type Pool, type QueueRouter, type RoutedWrites } from '@mailer/shared';
import type { TriggerRoutesRecord } from '../../data-access/trigger-routes-record';
import type { LiveTrigger } from '../../data-access/trigger-routes.repository';
import { routeLiveTriggers, routeTriggers } from './route-triggers';

/** What a workflow write needs of the routing: its triggers bound before its commit, tidied up after. */
export type TriggerRoutes = RoutedWrites<LiveTrigger>;

/** automation.contact-events bound to the (account, event) of every enabled workflow. */
export type TriggerRouting = QueueRouting<LiveTrigger>;

export const routingUnavailable = () =>
  new AppError(CommonErrorCodes.UNAVAILABLE, 'the message broker is unreachable, so the workflow could not be armed; nothing was saved, retry later').withHeaders({
    'Retry-After': '5',
  });

const recordUnavailable = () =>
  new AppError(CommonErrorCodes.UNAVAILABLE, 'Redis is unreachable, so the workflow could not be armed; nothing was saved, retry later').withHeaders({
    'Retry-After': '5',
  });

export const createTriggerRouting = (deps: { pool: Pool; router: QueueRouter; record: TriggerRoutesRecord; logger: Logger }): TriggerRouting => {
  const record = {
    add: (keys: readonly string[]) =>
      deps.record.add(keys).catch((error: unknown) => {
        deps.logger.warn({ err: error }, 'could not add a workflow trigger to the routes in Redis');
        throw recordUnavailable();
      }),
  };
  return new QueueRouting<LiveTrigger>({
    pool: deps.pool,
    logger: deps.logger,
    what: 'workflow trigger bindings',
    reconcileWithin: async (client) => {
      const keys = await routeLiveTriggers(client, deps.router);
      // Not a failure of the bindings: a set left unrenewed expires, and until a reconcile writes it
      // whole again the gateway publishes every event (docs/decisions.md, "Session 40").
      await deps.record
        .replace(keys)
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not record the workflow trigger routes in Redis; the gateway publishes every event until they are'));
    },
    bindWithin: (client, triggers) => routeTriggers(client, deps.router, record, triggers),
    unavailable: routingUnavailable,
  });
};
