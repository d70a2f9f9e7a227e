import type { Broker } from '@mailer/shared';
import { contactBouncedConsumer } from './contact-bounced.consumer';
import { contactConfirmedConsumer } from './contact-confirmed.consumer';
import type { ConsumerDeps } from './consumer-deps';
import { emailEngagementConsumer } from './email-engagement.consumer';
import { productEventConsumer } from './product-event.consumer';
import { unsubscribeRequestedConsumer } from './unsubscribe-requested.consumer';

/** Every queue this service consumes; the broker restarts them on each reconnection. */
export function registerConsumers(broker: Broker, deps: ConsumerDeps): void {
  broker.consume(contactBouncedConsumer(deps));
  broker.consume(unsubscribeRequestedConsumer(deps));
  broker.consume(productEventConsumer(deps));
  broker.consume(contactConfirmedConsumer(deps));
  broker.consume(emailEngagementConsumer(deps));
}
