import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SERVICE_ATTRIBUTE } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { startProduct, type Product } from './stack-harness';

const welcome = {
  name: 'Traced welcome',
  trigger: { event: 'signup' },
  transactional: false,
  steps: [{ id: 'welcome', type: 'email', subject: 'Welcome', html: '<p>Hello.</p>' }],
};

// Registered before the product starts, exactly as startTelemetry would in a process: a real tracer
// provider, the W3C propagator and an AsyncLocalStorage context manager; spans land in memory.
const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

describe('tracing: one event is one trace from the gateway to the SMTP send, across every hop', () => {
  let product: Product;
  beforeAll(async () => {
    exporter.reset();
    product = await startProduct();
  }, 60_000);
  afterAll(() => product?.stop());

  const serviceOf = (span: ReadableSpan) => span.attributes[SERVICE_ATTRIBUTE];

  it('joins the enrolment, the send step and the smtp.send span in one trace, without the address', async () => {
    const account = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, account.accountId, [welcome]);
    const address = 'traced@example.test';
    const accepted = await product.sendEvent(account.key, { event: 'signup', email: address, properties: {} });
    expect(accepted.status).toBe(202);
    const [email] = await waitFor(() => {
      const received = product.smtp.messagesTo(address);
      return received.length > 0 ? received : undefined;
    }, {
      timeoutMs: 15_000,
      what: 'the welcome email',
    });
    const sent = await waitFor(
      () => exporter.getFinishedSpans().find((span) => span.name === 'smtp.send' && span.attributes['mailer.message_id'] === email?.parsed.messageId),
      { what: 'the smtp.send span' },
    );
    const traceId = sent.spanContext().traceId;
    // The step's span ends after the outcome is recorded, a little after the SMTP call's.
    await waitFor(
      () => exporter.getFinishedSpans().find((span) => span.name === 'send step welcome' && span.spanContext().traceId === traceId),
      { what: 'the send step span' },
    );
    const inTrace = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    const gatewayRequest = inTrace.find((span) => serviceOf(span) === 'gateway' && span.name.startsWith('POST /v1/events'));
    expect(gatewayRequest).toBeDefined();
    // The hops the trace must cross: the gateway's proxy, the events service's publish, contacts'
    // upsert and enriched publish, automation's enrolment and send.
    const names = inTrace.map((span) => span.name);
    const hops = {
      'publish product_event.received.v1': 'events',
      'process product_event.received.v1': 'contacts',
      'publish product_event.enriched.v1': 'contacts',
      'process product_event.enriched.v1': 'automation',
      'send step welcome': 'automation',
    };
    expect(names).toEqual(expect.arrayContaining([...Object.keys(hops), 'smtp.send']));
    for (const [name, service] of Object.entries(hops)) expect({ name, service: serviceOf(inTrace.find((span) => span.name === name)!) }).toEqual({ name, service });
    expect(sent.attributes).toMatchObject({
      [SERVICE_ATTRIBUTE]: 'automation',
      // The Message-ID the inbox got, so a trace leads to the email and back.
      'mailer.message_id': email?.parsed.messageId,
      'mailer.step_id': 'welcome',
      'mailer.account_id': account.accountId,
    });
    // No address in clear: the only '@' in any attribute is the Message-ID's own (<hash@mailer.local>).
    for (const span of inTrace) {
      const { ['mailer.message_id']: _messageId, ...rest } = span.attributes;
      expect(JSON.stringify(rest)).not.toContain('@');
      expect(JSON.stringify(span.attributes)).not.toContain(address);
    }
    // Every span but the first has its parent in the same trace: one tree, not fragments.
    const ids = new Set(inTrace.map((span) => span.spanContext().spanId));
    const roots = inTrace.filter((span) => !span.parentSpanContext || !ids.has(span.parentSpanContext.spanId));
    expect(roots.map((span) => span.name)).toEqual([gatewayRequest?.name]);
  }, 30_000);
});
