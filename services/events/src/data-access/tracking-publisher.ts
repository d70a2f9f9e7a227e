import { emailClickedV1, emailOpenedV1, type Broker, type MessageOf } from '@mailer/shared';

export type OpenedHit = MessageOf<typeof emailOpenedV1>;
export type ClickedHit = MessageOf<typeof emailClickedV1>;
export type TrackingHit = { kind: 'open'; hit: OpenedHit } | { kind: 'click'; hit: ClickedHit };

/** Publishes a hit as `email.opened.v1` or `email.clicked.v1`, its id the hit's own (consumers deduplicate by it). */
export type PublishHit = (hit: TrackingHit) => Promise<void>;

export const trackingPublisher =
  (broker: Broker): PublishHit =>
  (tracked) =>
    tracked.kind === 'open'
      ? broker.publish(emailOpenedV1, tracked.hit, { messageId: tracked.hit.hit_id })
      : broker.publish(emailClickedV1, tracked.hit, { messageId: tracked.hit.hit_id });
