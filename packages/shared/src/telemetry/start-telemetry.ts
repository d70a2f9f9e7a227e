import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/**
 * Starts OpenTelemetry before the service imports anything it instruments. Off unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set or span processors are given (tests use an in-memory one).
 * Returns the shutdown function, which flushes pending spans.
 */
export function startTelemetry(
  serviceName: string,
  options: { spanProcessors?: SpanProcessor[]; env?: NodeJS.ProcessEnv } = {},
): (() => Promise<void>) | undefined {
  const env = options.env ?? process.env;
  const processors = [...(options.spanProcessors ?? [])];
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) processors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  if (processors.length === 0) return undefined;
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: processors,
    instrumentations: [
      new HttpInstrumentation({
        // Health probes would drown the traces that matter.
        ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|metrics)/.test(request.url ?? ''),
        headersToSpanAttributes: { server: { requestHeaders: ['x-request-id'] } },
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
      new IORedisInstrumentation(),
      new AmqplibInstrumentation(),
    ],
  });
  sdk.start();
  return () => sdk.shutdown();
}
