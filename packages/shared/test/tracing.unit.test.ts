import { Writable } from 'node:stream';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { contextFromTraceparent, createLogger, currentTraceparent, withSpan } from '../src';

const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('test', { destination }), lines };
}

describe('tracing helpers', () => {
  afterAll(() => {
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it('costs nothing and stores no trace when no tracer provider is registered', async () => {
    const stored = await withSpan('untraced', {}, async (span) => {
      expect(span.isRecording()).toBe(false);
      return currentTraceparent();
    });
    expect(stored).toBeNull();
  });

  it('continues a stored traceparent, and log lines inside the span carry its trace id', async () => {
    const exporter = new InMemorySpanExporter();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    const { logger, lines } = capturedLogger();

    const inner = await withSpan('step', { 'mailer.service': 'test' }, async () => {
      logger.info('inside');
      return currentTraceparent();
    }, { parent: contextFromTraceparent(CALLER) });

    const [span] = exporter.getFinishedSpans();
    expect(span?.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(inner).toBe(`00-4bf92f3577b34da6a3ce929d0e0e4736-${span?.spanContext().spanId}-01`);
    expect(lines[0]).toMatchObject({ msg: 'inside', trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' });
  });
});
