import { AppError, CommonErrorCodes, QueueRouting, type Logger, type Pool, type QueueRouter, type RoutedWrites } from '@mailer/shared';
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

export const createTriggerRouting = (deps: { pool: Pool; router: QueueRouter; logger: Logger }): TriggerRouting =>
  new QueueRouting<LiveTrigger>({
    pool: deps.pool,
    logger: deps.logger,
    what: 'workflow trigger bindings',
    reconcileWithin: (client) => routeLiveTriggers(client, deps.router),
    bindWithin: (client, triggers) => routeTriggers(client, deps.router, triggers),
    unavailable: routingUnavailable,
  });
