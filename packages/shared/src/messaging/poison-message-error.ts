/** A message that can never be processed (bad shape, impossible reference): dead-letter it now. */
export class PoisonMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoisonMessageError';
  }
}

/** Thrown by `Broker.publish` when a message was not confirmed by the broker. */
export class BrokerUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrokerUnavailableError';
  }
}
