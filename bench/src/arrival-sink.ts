import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One accepted email: its recipients and when its last byte arrived. */
export interface Arrival {
  to: string[];
  receivedAt: number;
}

export interface ArrivalSink {
  port: number;
  url: string;
  /** Appended in arrival order; the bench clears it between scenarios. */
  messages: Arrival[];
  close(): Promise<void>;
}

/**
 * The benchmark's SMTP server: a real SMTP conversation that accepts everything and keeps only
 * recipients and arrival times. The test sink also parses each message (mailparser), which on two
 * shared cores would take CPU from the stack it measures; the product and baseline B both send here.
 */
export async function startArrivalSink(): Promise<ArrivalSink> {
  const messages: Arrival[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()), receivedAt: Date.now() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
