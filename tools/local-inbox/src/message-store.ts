import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What the list page shows of a message, read from its headers once. */
export interface StoredMessage {
  id: string;
  receivedAt: Date;
  from: string;
  to: string;
  subject: string;
}

const ID_PATTERN = /^\d{13}-[0-9a-f]{6}$/;

function headerValue(raw: string, name: string): string {
  const head = (raw.split(/\r?\n\r?\n/, 1)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) in a header, decoded for display. */
export function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_match, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
  );
}

/**
 * Captured messages as `.eml` files in one folder, so the inbox survives a restart of the stack.
 * Keeps the newest `capacity` messages; the index in memory holds headers only.
 */
export class MessageStore {
  private readonly messages: StoredMessage[] = [];

  constructor(
    private readonly folder: string,
    private readonly capacity: number,
  ) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (const file of readdirSync(folder).sort()) {
      const id = file.replace(/\.eml$/, '');
      if (file.endsWith('.eml') && ID_PATTERN.test(id)) this.messages.push(this.describe(id, readFileSync(this.pathOf(id), 'utf8')));
    }
    this.trim();
  }

  add(raw: string, envelopeTo: string[]): StoredMessage {
    const id = `${Date.now()}-${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`;
    writeFileSync(this.pathOf(id), raw, { mode: 0o600 });
    const message = this.describe(id, raw);
    if (!message.to) message.to = envelopeTo.join(', ');
    this.messages.push(message);
    this.trim();
    return message;
  }

  /** Newest first. */
  list(): readonly StoredMessage[] {
    return [...this.messages].reverse();
  }

  find(id: string): StoredMessage | undefined {
    return this.messages.find((message) => message.id === id);
  }

  raw(id: string): string | undefined {
    return this.find(id) ? readFileSync(this.pathOf(id), 'utf8') : undefined;
  }

  private describe(id: string, raw: string): StoredMessage {
    return {
      id,
      receivedAt: new Date(Number(id.slice(0, 13))),
      from: decodeHeader(headerValue(raw, 'from')),
      to: decodeHeader(headerValue(raw, 'to')),
      subject: decodeHeader(headerValue(raw, 'subject')),
    };
  }

  private trim(): void {
    while (this.messages.length > this.capacity) {
      const oldest = this.messages.shift();
      if (oldest) rmSync(this.pathOf(oldest.id), { force: true });
    }
  }

  private pathOf(id: string): string {
    return path.join(this.folder, `${id}.eml`);
  }
}
