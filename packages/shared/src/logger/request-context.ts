import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line of one request or one message carries. */
export interface LogContext {
  requestId?: string;
  messageId?: string;
}

export const logContext = new AsyncLocalStorage<LogContext>();

export function runWithLogContext<T>(context: LogContext, fn: () => T): T {
  return logContext.run({ ...logContext.getStore(), ...context }, fn);
}
