import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '../src/logger/logger';
import type { emailSentV1 } from '../src/contracts/email-facts';
import type { MessageOf } from '../src/contracts/message-contract';

/** A logger whose lines are kept in memory, for asserting what was (not) logged. */
export function memoryLogger(service = 'test') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: createLogger(service, { level: 'debug', destination }), lines };
}

export const uniqueName = (prefix: string) => `${prefix}${randomBytes(4).toString('hex')}`;

/** An email.sent fact for step `step`, unique by its message id. */
export const sentFact = (step: string): MessageOf<typeof emailSentV1> => ({
  account_id: 1,
  contact_id: 2,
  workflow: 'welcome',
  step,
  message_id: `<${randomUUID()}@test>`,
  outcome: 'sent',
  occurred_at: new Date().toISOString(),
});
