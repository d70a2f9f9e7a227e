import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '../src/logger/logger';

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
