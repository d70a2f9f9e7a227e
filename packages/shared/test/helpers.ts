import { randomBytes, randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
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

/** Counts what reaches `socket` from now on: one entry per write the kernel is asked for, with its chunks. */
export function countSocketWrites(socket: Socket): number[] {
  const writes: number[] = [];
  const write = socket._write.bind(socket);
  const writev = socket._writev?.bind(socket);
  socket._write = (chunk, encoding, callback) => {
    writes.push(1);
    write(chunk, encoding, callback);
  };
  socket._writev = (chunks, callback) => {
    writes.push(chunks.length);
    writev?.(chunks, callback);
  };
  return writes;
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
