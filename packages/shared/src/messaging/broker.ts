import { context } from '@opentelemetry/api';
import amqp, { type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { MessageContract, MessageOf } from '../contracts/message-contract';
import { backoffDelay, sleep } from './backoff';
import { BrokerUnavailableError } from './poison-message-error';
import { declareTopology } from './declare-topology';
import { setQueueBindings } from './set-queue-bindings';
import { ConsumerRunner, type ConsumerSpec } from './consumer-runner';
import { EXCHANGE as EXCHANGE_NAME, MAY_BE_UNROUTED } from './topology';
import { brokerMetrics, type BrokerMetrics } from './broker-metrics';
import { coalesceFrameWrites } from './coalesce-frame-writes';
import { extractTraceContext, injectTraceContext, SERVICE_ATTRIBUTE, SpanKind, withSpan } from '../tracing/tracing';

export interface BrokerOptions {
  url: string;
  logger: Logger;
  /** Names the connection in the broker's UI. */
  connectionName: string;
  /** Prefix of every exchange and queue name (tests); empty in production. */
  namespace?: string;
  /** How long a publish waits for the broker's confirm before it counts as failed. */
  confirmTimeoutMs?: number;
  /** When given, publishes and consumer outcomes (ack, requeue, dead-letter) are counted on it, per queue. */
  metrics?: Registry;
}

export interface PublishOptions {
  messageId: string;
  headers?: Record<string, string>;
  /**
   * Routes by this key instead of the message type (the type still travels as the message's
   * `type`). A keyed publish may find no queue, and that is no error: its consumer binds only the
   * keys it wants (see `triggerRoutingKey`), so the publish is not mandatory.
   */
  routingKey?: string;
  /** A keyed publish that must find a queue (rejected as unrouted otherwise): how a test sees whether a key is bound. */
  mandatory?: boolean;
}

/**
 * One connection to RabbitMQ that heals itself: on loss it reconnects with jittered backoff,
 * re-declares the topology and restarts every consumer. Publishing goes through a confirm channel
 * and resolves only once the broker has taken responsibility for the message.
 */
export class Broker {
  private connection: ChannelModel | undefined;
  private publishChannel: ConfirmChannel | undefined;
  private readonly returned = new Set<string>();
  private readonly consumers: ConsumerRunner<MessageContract>[] = [];
  private readonly connectedListeners: (() => void)[] = [];
  private closing = false;
  private connecting: Promise<void> | undefined;
  private readonly confirmTimeoutMs: number;
  private readonly namespace: string;
  private readonly metrics: BrokerMetrics | undefined;

  private constructor(private readonly options: BrokerOptions) {
    this.confirmTimeoutMs = options.confirmTimeoutMs ?? 5000;
    this.namespace = options.namespace ?? '';
    this.metrics = options.metrics ? brokerMetrics(options.metrics) : undefined;
  }

  /**
   * Starts connecting and resolves at once: a service may start (and report not-ready) while the
   * broker is down; `ready()` waits for the first connection.
   */
  static start(options: BrokerOptions): Broker {
    const broker = new Broker(options);
    broker.connecting = broker.connectLoop();
    return broker;
  }

  isConnected(): boolean {
    return this.publishChannel !== undefined;
  }

  /** Resolves once connected and the topology is declared (or rejects after `timeoutMs`). */
  async ready(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.isConnected()) {
      if (this.closing) throw new BrokerUnavailableError('broker is closing');
      if (Date.now() > deadline) throw new BrokerUnavailableError('broker not reachable');
      await sleep(50);
    }
  }

  /** Publishes `payload` as `contract.type`; resolves after the broker's confirm, rejects otherwise. */
  async publish<C extends MessageContract>(contract: C, payload: MessageOf<C>, options: PublishOptions): Promise<void> {
    // A traceparent given by the caller (an outbox row's stored one) wins over the active context,
    // so a relay continues the trace of the transaction that wrote the row.
    const given = options.headers?.traceparent;
    const parent = given ? extractTraceContext(options.headers) : context.active();
    await withSpan(
      `publish ${contract.type}`,
      { [SERVICE_ATTRIBUTE]: this.options.connectionName, 'messaging.system': 'rabbitmq', 'messaging.message.id': options.messageId },
      () => {
        const headers: Record<string, string> = { ...options.headers };
        delete headers.traceparent;
        delete headers.tracestate;
        injectTraceContext(headers);
        return this.publishCounted(contract, payload, { ...options, headers });
      },
      { kind: SpanKind.PRODUCER, parent },
    );
  }

  private async publishCounted<C extends MessageContract>(contract: C, payload: MessageOf<C>, options: PublishOptions): Promise<void> {
    if (!this.metrics) return this.publishConfirmed(contract, payload, options);
    try {
      await this.publishConfirmed(contract, payload, options);
      this.metrics.published(contract.type, 'confirmed');
    } catch (error) {
      this.metrics.published(contract.type, 'failed');
      throw error;
    }
  }

  private async publishConfirmed<C extends MessageContract>(contract: C, payload: MessageOf<C>, options: PublishOptions): Promise<void> {
    const channel = this.publishChannel;
    if (!channel) throw new BrokerUnavailableError('not connected to the message broker');
    const body = Buffer.from(JSON.stringify(contract.schema.parse(payload)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new BrokerUnavailableError('broker did not confirm in time')),
        this.confirmTimeoutMs,
      );
      try {
        channel.publish(
          this.namespace + EXCHANGE_NAME,
          options.routingKey ?? contract.type,
          body,
          {
            persistent: true,
            mandatory: options.mandatory ?? (options.routingKey === undefined && !MAY_BE_UNROUTED.has(contract.type)),
            contentType: 'application/json',
            type: contract.type,
            messageId: options.messageId,
            timestamp: Math.floor(Date.now() / 1000),
            headers: options.headers ?? {},
          },
          (error: unknown) => {
            clearTimeout(timer);
            const wasReturned = this.returned.delete(options.messageId);
            if (error) reject(new BrokerUnavailableError('broker refused the message'));
            else if (wasReturned) reject(new BrokerUnavailableError(`no queue is bound for ${contract.type}`));
            else resolve();
          },
        );
      } catch (error) {
        clearTimeout(timer);
        reject(new BrokerUnavailableError(`publish failed: ${(error as Error).message}`));
      }
    });
  }

  /** Registers a consumer; it runs on every (re)connection until `close()`. */
  consume<C extends MessageContract>(spec: ConsumerSpec<C>): void {
    // Metrics name the queue without the namespace, so dashboards read the same in every environment.
    const observe = this.metrics?.consumed(spec.queue);
    const runner = new ConsumerRunner({ ...spec, queue: this.namespace + spec.queue }, this.options.logger, observe, this.options.connectionName) as unknown as ConsumerRunner<MessageContract>;
    this.consumers.push(runner);
    if (this.connection) void this.startConsumer(runner, this.connection);
  }

  /**
   * Calls `listener` after each (re)connection, once the topology is declared, and at once when
   * connected already: for broker state the topology does not declare (bindings made at run time).
   * The listener's own failures are its to handle.
   */
  onConnected(listener: () => void): void {
    this.connectedListeners.push(listener);
    if (this.connection) this.notifyConnected(listener);
  }

  /**
   * Binds `queue` to the facts exchange with each of `keys.bind` and unbinds it from each of
   * `keys.unbind`, namespace applied. Both are idempotent (unbinding an absent binding succeeds).
   * Resolves once the broker has answered every one; rejects while disconnected or after
   * `confirmTimeoutMs`. For bindings that change at run time (`webhooks.facts`).
   */
  async setQueueBindings(queue: string, keys: { bind: readonly string[]; unbind: readonly string[] }): Promise<void> {
    const connection = this.connection;
    if (!connection) throw new BrokerUnavailableError('not connected to the message broker');
    const target = { queue: this.namespace + queue, exchange: this.namespace + EXCHANGE_NAME };
    await setQueueBindings(connection, target, keys, { timeoutMs: this.confirmTimeoutMs, logger: this.options.logger });
  }

  /** Cancels consumers, waits for in-flight handlers (up to `deadlineMs`), then closes the connection. */
  async close(deadlineMs = 8000): Promise<void> {
    this.closing = true;
    await Promise.all(this.consumers.map((consumer) => consumer.stop(deadlineMs)));
    // A connection still being made is awaited first: read before it, it would be missed and stay
    // open after close (a service stopped while it was connecting kept its socket).
    await this.connecting;
    const connection = this.connection;
    this.connection = undefined;
    this.publishChannel = undefined;
    await connection?.close().catch(() => undefined);
  }

  private async connectLoop(): Promise<void> {
    for (let attempt = 0; !this.closing; attempt++) {
      try {
        await this.connectOnce();
        return;
      } catch (error) {
        const delay = backoffDelay(Math.min(attempt, 10), 100, 5000);
        this.options.logger.warn({ err: error, retryInMs: delay }, 'message broker unreachable; retrying');
        await sleep(delay);
      }
    }
  }

  private async connectOnce(): Promise<void> {
    const connection = await amqp.connect(this.options.url, {
      clientProperties: { connection_name: this.options.connectionName },
      timeout: 5000,
      // amqplib leaves Nagle's algorithm on. A consumer's ack gets no reply from the broker, so the
      // kernel holds the next frame (a publish, another ack) until the broker's delayed TCP ack,
      // up to 40 ms: a message handled once every few milliseconds waited that long at the tail.
      noDelay: true,
    });
    try {
      if (!coalesceFrameWrites(connection)) this.options.logger.debug('amqplib internals changed: frames are written one by one');
      connection.on('error', (error: Error) => this.options.logger.warn({ err: error }, 'broker connection error'));
      const setup = await connection.createChannel();
      await declareTopology(setup, this.namespace);
      await setup.close();
      const publishChannel = await connection.createConfirmChannel();
      publishChannel.on('error', (error: Error) => this.options.logger.warn({ err: error }, 'publish channel error'));
      publishChannel.on('return', (message: ConsumeMessage) => {
        const id = message.properties.messageId as string | undefined;
        if (id) this.returned.add(id);
      });
      publishChannel.on('close', () => {
        if (this.publishChannel === publishChannel) this.publishChannel = undefined;
      });
      connection.on('close', () => this.onConnectionLost(connection));
      this.connection = connection;
      this.publishChannel = publishChannel;
      this.options.logger.info('connected to the message broker');
      for (const listener of this.connectedListeners) this.notifyConnected(listener);
      await Promise.all(this.consumers.map((consumer) => this.startConsumer(consumer, connection)));
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  private notifyConnected(listener: () => void): void {
    try {
      listener();
    } catch (error) {
      this.options.logger.error({ err: error }, 'broker connection listener failed');
    }
  }

  private onConnectionLost(connection: ChannelModel): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.publishChannel = undefined;
    if (this.closing) return;
    this.options.logger.warn('lost the message broker connection; reconnecting');
    this.connecting = this.connectLoop();
  }

  /**
   * Starts a consumer on `connection`, and again after a backoff while that connection lasts when
   * it fails (a quorum queue still electing its leader after the broker's restart refuses a
   * consumer for a moment) or when the broker cancels it: left alone, its queue would fill up
   * unread until the next reconnection, which may never come.
   */
  private async startConsumer(consumer: ConsumerRunner<MessageContract>, connection: ChannelModel, attempt = 0): Promise<void> {
    const retry = (reason: string, failures: number, error?: unknown) => {
      if (this.closing || this.connection !== connection) return;
      const delay = backoffDelay(Math.min(failures, 8), 100, 5000);
      this.options.logger.error({ err: error, queue: consumer.queue, retryInMs: delay }, reason);
      setTimeout(() => void this.startConsumer(consumer, connection, failures + 1), delay).unref();
    };
    try {
      // A consumer that ran and was then cancelled starts again as soon as a first failure would.
      await consumer.start(connection, () => retry('the broker cancelled a consumer; starting it again', 0));
    } catch (error) {
      retry('consumer failed to start; retrying', attempt, error);
    }
  }
}
