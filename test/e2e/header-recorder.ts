import http from 'node:http';
import { listen, type RunningServer } from '@mailer/shared';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A wiretap between the gateway and one internal service: it forwards every request unchanged and
 * keeps a copy, as an attacker inside the network would capture traffic. `target` is set once the
 * service is up (the gateway must be told the tap's address first).
 */
export async function startHeaderRecorder() {
  const recorded: RecordedRequest[] = [];
  let target = '';
  const server: RunningServer = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      recorded.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const upstream = http.request(`${target}${req.url ?? ''}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  }, 0, '127.0.0.1');
  return {
    url: server.url,
    recorded,
    forwardTo(url: string) {
      target = url;
    },
    close: () => server.close(100),
  };
}
