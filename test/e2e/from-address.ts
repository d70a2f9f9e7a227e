import http from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * One HTTP request sent from `localAddress` (any 127/8 address is this host): the gateway sees a
 * client of its own, so a test can spend that address's rate-limit window without touching others'.
 */
export function requestFrom(localAddress: string, url: string, method: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answerHeaders.set(name, String(value));
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
