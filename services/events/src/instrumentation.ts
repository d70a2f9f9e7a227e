// Loaded with `node --require` before main, so the libraries it instruments are patched on first
// import. The OpenTelemetry SDK is only loaded when tracing is configured: it costs ~50 MB of RSS.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const telemetry = require('@mailer/shared/telemetry') as typeof import('@mailer/shared/telemetry');
  telemetry.startTelemetry('events');
}
