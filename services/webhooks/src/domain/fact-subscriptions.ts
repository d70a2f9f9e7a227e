import { QueueRouting, type Logger, type Pool, type QueueRouter } from '@mailer/shared';
import { routeFactsOf, routeSubscribedFacts } from './route-facts';
import { routingUnavailable } from './webhook.errors';

/** `webhooks.facts` bound to the facts enabled endpoints subscribe to (event types). */
export type FactSubscriptions = QueueRouting<string>;

export const createFactSubscriptions = (deps: { pool: Pool; router: QueueRouter; logger: Logger }): FactSubscriptions =>
  new QueueRouting<string>({
    pool: deps.pool,
    logger: deps.logger,
    what: 'webhooks.facts bindings',
    reconcileWithin: (client) => routeSubscribedFacts(client, deps.router),
    bindWithin: (client, eventTypes) => routeFactsOf(client, deps.router, eventTypes),
    unavailable: routingUnavailable,
  });
