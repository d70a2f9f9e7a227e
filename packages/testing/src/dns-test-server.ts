import dns2 from 'dns2';
import type { AddressInfo } from 'node:net';

/** What the test server answers for a name (and every name below it). */
export type ZoneBehaviour =
  | { mx?: string[]; a?: string[]; aaaa?: string[] }
  | 'nxdomain'
  | 'servfail'
  /** Never answers: drives the resolver's timeout. */
  | 'silent';

/** Fixture zones most tests need; pass more to `startDnsTestServer`. */
export const defaultZones: Record<string, ZoneBehaviour> = {
  'mx.test': { mx: ['mail.mx.test'] },
  'example.test': { mx: ['mail.example.test'], a: ['127.0.0.1'] },
  'a-only.test': { a: ['192.0.2.10'] },
  'aaaa-only.test': { aaaa: ['2001:db8::10'] },
  'empty.test': {},
  'missing.test': 'nxdomain',
  'broken.test': 'servfail',
  'slow.test': 'silent',
};

export interface DnsTestServer {
  /** `127.0.0.1:port`, the form `DNS_SERVERS` takes. */
  address: string;
  port: number;
  /** Questions received, to assert that a lookup did or did not happen. */
  queries: Array<{ name: string; type: number }>;
  close(): Promise<void>;
}

// RFC 1035 response codes (dns2's typings do not expose its RCODE table).
const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;

function zoneFor(zones: Record<string, ZoneBehaviour>, name: string): ZoneBehaviour {
  const labels = name.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length; i++) {
    const zone = zones[labels.slice(i).join('.')];
    if (zone !== undefined) return zone;
  }
  return 'nxdomain';
}

/** A real DNS server over UDP on loopback, answering from fixture zones (unknown names: NXDOMAIN). */
export async function startDnsTestServer(zones: Record<string, ZoneBehaviour> = defaultZones): Promise<DnsTestServer> {
  const { Packet } = dns2;
  const queries: DnsTestServer['queries'] = [];
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    if (!question) return;
    queries.push({ name: question.name, type: question.type });
    const zone = zoneFor(zones, question.name);
    if (zone === 'silent') return;
    if (zone === 'nxdomain' || zone === 'servfail') {
      response.header.rcode = zone === 'nxdomain' ? RCODE_NXDOMAIN : RCODE_SERVFAIL;
      send(response);
      return;
    }
    const base = { name: question.name, class: Packet.CLASS.IN, ttl: 60 };
    if (question.type === Packet.TYPE.MX) {
      zone.mx?.forEach((exchange, index) =>
        response.answers.push({ ...base, type: Packet.TYPE.MX, exchange, priority: 10 * (index + 1) } as never),
      );
    } else if (question.type === Packet.TYPE.A) {
      zone.a?.forEach((address) => response.answers.push({ ...base, type: Packet.TYPE.A, address } as never));
    } else if (question.type === Packet.TYPE.AAAA) {
      zone.aaaa?.forEach((address) => response.answers.push({ ...base, type: Packet.TYPE.AAAA, address } as never));
    }
    send(response);
  });
  await server.listen(0, '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    queries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
