import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import type { MessageContract, MessageOf } from '../contracts/message-contract';
import { isDependencyUnavailable } from '../errors/unavailable';
import { runWithLogContext } from '../logger/request-context';
import { backoffDelay, sleep } from './backoff';
import { PoisonMessageError } from './poison-message-error';
import { extractTraceContext, SERVICE_ATTRIBUTE, SpanKind, withSpan } from '../tracing/tracing';

export interface ReceivedMessage<C extends MessageContract> {
  type: C['type'];
  payload: MessageOf<C>;
  messageId: string;
  headers: Record<string, unknown>;
  redelivered: boolean;
}

export type ConsumeOutcome = 'ack' | 'dead-letter' | 'requeue';

export interface ConsumerSpec<C extends MessageContract> {
  queue: string;
  /** The message types this queue carries; anything else is poison. */
  contracts: readonly C[];
  /** Unacknowledged messages in flight at once. */
  prefetch?: number;
  handle: (message: ReceivedMessage<C>) => Promise<void>;
  /** Observes each message's fate (metrics, tests). */
  onOutcome?: (outcome: ConsumeOutcome, messageId: string | undefined) => void;
}

/** Sees each settled message's outcome and how long it took from delivery (metrics). */
export type OutcomeObserver = (outcome: ConsumeOutcome, seconds: number) => void;

/**
 * Runs one consumer on its own channel: parses with the contract's schema, calls the handler, and
 * acks only after it succeeded. Poison goes to the dead-letter queue at once; a dependency outage
 * (database down) is retried in place, so it spends no delivery attempts; any other failure is
 * requeued, and the queue's delivery limit dead-letters it in the end.
 */
export class ConsumerRunner<C extends MessageContract> {
  private channel: Channel | undefined;
  private consumerTag: string | undefined;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Delivery time per message, for the handler-duration metric; weak so a lost message leaks nothing. */
  private readonly deliveredAt = new WeakMap<ConsumeMessage, bigint>();

  constructor(
    private readonly spec: ConsumerSpec<C>,
    private readonly logger: Logger,
    private readonly observe?: OutcomeObserver,
    /** Names the consuming service on its spans. */
    private readonly service = 'unknown',
  ) {}

  get queue(): string {
    return this.spec.queue;
  }

  /**
   * Consumes on a channel of its own. `onCancelled` is called when the broker cancels the consumer
   * (its queue deleted or failed over), so the caller can start it again.
   */
  async start(connection: ChannelModel, onCancelled?: () => void): Promise<void> {
    if (this.stopping) return;
    const channel = await connection.createChannel();
    channel.on('error', (error: Error) => this.logger.warn({ err: error, queue: this.queue }, 'consumer channel error'));
    try {
      await channel.prefetch(this.spec.prefetch ?? 16);
      this.channel = channel;
      const { consumerTag } = await channel.consume(this.queue, (message) => {
        if (!message) {
          // The broker's cancel: messages in flight still settle on this channel, then it closes.
          if (!this.stopping) void this.closeWhenSettled(channel).then(onCancelled);
          return;
        }
        const work = this.process(channel, message).finally(() => this.inFlight.delete(work));
        this.inFlight.add(work);
      });
      this.consumerTag = consumerTag;
    } catch (error) {
      // A refused consume closes the channel on the broker's side; this makes sure of it.
      await channel.close().catch(() => undefined);
      throw error;
    }
  }

  private async closeWhenSettled(channel: Channel): Promise<void> {
    await Promise.all([...this.inFlight]);
    await channel.close().catch(() => undefined);
  }

  async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    const channel = this.channel;
    if (channel && this.consumerTag) await channel.cancel(this.consumerTag).catch(() => undefined);
    const drained = Promise.all([...this.inFlight]);
    // The deadline timer is cleared once drained, so a stopped consumer leaves nothing keeping the process alive.
    let deadline: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise<void>((resolve) => (deadline = setTimeout(resolve, deadlineMs)))]);
    clearTimeout(deadline);
    await channel?.close().catch(() => undefined);
  }

  private async process(channel: Channel, message: ConsumeMessage): Promise<void> {
    this.deliveredAt.set(message, process.hrtime.bigint());
    const messageId = message.properties.messageId as string | undefined;
    const parsed = this.parse(message, messageId);
    if (!parsed) {
      this.settle(channel, message, 'dead-letter', messageId);
      return;
    }
    // The handler runs in a CONSUMER span, child of the publisher's trace carried in the headers.
    const attributes = { [SERVICE_ATTRIBUTE]: this.service, 'messaging.destination.name': this.queue, 'messaging.message.id': parsed.messageId };
    const parent = extractTraceContext(parsed.headers);
    await runWithLogContext({ messageId: parsed.messageId }, () =>
      withSpan(`process ${parsed.type}`, attributes, () => this.handleWithRetries(channel, message, parsed, messageId), {
        kind: SpanKind.CONSUMER,
        parent,
      }),
    );
  }

  private async handleWithRetries(channel: Channel, message: ConsumeMessage, parsed: ReceivedMessage<C>, messageId: string | undefined): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.spec.handle(parsed);
        this.settle(channel, message, 'ack', messageId);
        return;
      } catch (error) {
        if (error instanceof PoisonMessageError) {
          this.logger.error({ err: error, queue: this.queue }, 'poison message; dead-lettering');
          this.settle(channel, message, 'dead-letter', messageId);
          return;
        }
        if (isDependencyUnavailable(error) && !this.stopping) {
          const delay = backoffDelay(Math.min(attempt, 8), 100, 5000);
          this.logger.warn({ err: error, queue: this.queue, retryInMs: delay }, 'dependency down; retrying message');
          await sleep(delay);
          continue;
        }
        this.logger.error({ err: error, queue: this.queue }, 'message handler failed; requeueing');
        // A short pause keeps a persistently failing message from spinning the CPU.
        await sleep(this.stopping ? 0 : 250);
        this.settle(channel, message, 'requeue', messageId);
        return;
      }
    }
  }

  private parse(message: ConsumeMessage, messageId: string | undefined): ReceivedMessage<C> | undefined {
    const type = (message.properties.type as string | undefined) ?? message.fields.routingKey;
    const contract = this.spec.contracts.find((candidate) => candidate.type === type);
    if (!contract || !messageId) {
      this.logger.error({ queue: this.queue, type, messageId }, 'message of unknown type or without id; dead-lettering');
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(message.content.toString('utf8'));
    } catch {
      this.logger.error({ queue: this.queue, type, messageId }, 'message is not JSON; dead-lettering');
      return undefined;
    }
    const result = contract.schema.safeParse(json);
    if (!result.success) {
      this.logger.error({ queue: this.queue, type, messageId, issues: result.error.issues }, 'message fails its contract');
      return undefined;
    }
    return {
      type: contract.type,
      payload: result.data as MessageOf<C>,
      messageId,
      headers: message.properties.headers ?? {},
      redelivered: message.fields.redelivered,
    };
  }

  private settle(channel: Channel, message: ConsumeMessage, outcome: ConsumeOutcome, messageId: string | undefined): void {
    try {
      if (outcome === 'ack') channel.ack(message);
      else channel.nack(message, false, outcome === 'requeue');
      this.spec.onOutcome?.(outcome, messageId);
      this.observeOutcome(message, outcome);
    } catch (error) {
      // The channel closed under us; the broker will redeliver, and handlers are idempotent.
      this.logger.warn({ err: error, queue: this.queue, messageId }, 'could not settle message; it will be redelivered');
    }
  }

  private observeOutcome(message: ConsumeMessage, outcome: ConsumeOutcome): void {
    if (!this.observe) return;
    const started = this.deliveredAt.get(message);
    this.observe(outcome, started === undefined ? 0 : Number(process.hrtime.bigint() - started) / 1e9);
  }
}
