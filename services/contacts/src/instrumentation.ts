// Loaded with `node --require` before main, so the libraries it instruments are patched on first import.
import { startTelemetry } from '@mailer/shared/telemetry';

startTelemetry('contacts');
