import { SMTPServer } from 'smtp-server';
import type { MessageStore } from './message-store';

/** An SMTP server that accepts every message (no auth, no TLS: loopback only) and stores it. */
export function startCaptureServer(store: MessageStore, host: string, port: number, onMessage: (subject: string, to: string) => void) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 25 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
        const message = store.add(Buffer.concat(chunks).toString('utf8'), recipients);
        onMessage(message.subject, message.to);
        callback();
      });
      stream.on('error', callback);
    },
  });
  return new Promise<SMTPServer>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
