// The local inbox: `npm start` runs it when no SMTP_URL is set, so every email the stack sends can be
// read in a browser instead of going out. SMTP on INBOX_SMTP_PORT (1025), pages on INBOX_PORT (8025),
// messages kept as .eml files in INBOX_DIR. Loopback only: it accepts anything from anyone.
import http from 'node:http';
import { startCaptureServer } from './capture-server';
import { inboxHandler } from './inbox-http';
import { MessageStore } from './message-store';

const env = process.env;
const host = env.INBOX_HOST ?? '127.0.0.1';
const smtpPort = Number(env.INBOX_SMTP_PORT ?? 1025);
const httpPort = Number(env.INBOX_PORT ?? 8025);
const folder = env.INBOX_DIR ?? '.local/inbox';
const log = (message: string) => process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), service: 'inbox', msg: message })}\n`);

async function main() {
  const store = new MessageStore(folder, Number(env.INBOX_CAPACITY ?? 1000));
  const smtp = await startCaptureServer(store, host, smtpPort, (subject, to) => log(`captured "${subject}" to ${to}`));
  const handler = inboxHandler(store);
  const web = http.createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`could not show this message: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => web.once('error', reject).listen(httpPort, host, resolve));
  log(`listening: SMTP smtp://${host}:${smtpPort}, inbox http://${host}:${httpPort}/ (messages in ${folder})`);
  const stop = () => {
    web.close();
    smtp.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`inbox: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
