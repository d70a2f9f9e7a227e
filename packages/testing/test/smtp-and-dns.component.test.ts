import { Resolver } from 'node:dns/promises';
import nodemailer from 'nodemailer';
import { startDnsTestServer, startSmtpSink, type DnsTestServer, type SmtpSink } from '@mailer/testing';

describe('SMTP sink', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it('receives a message sent over real SMTP, with headers and body parsed', async () => {
    const transport = nodemailer.createTransport({ url: sink.url } as never);
    await transport.sendMail({
      from: 'app@example.test',
      to: 'ada@example.test',
      subject: 'Hello',
      text: 'Hi Ada',
      messageId: '<fixed@example.test>',
    });
    transport.close();
    const [message] = await sink.waitForMessages(1);
    expect(message?.to).toEqual(['ada@example.test']);
    expect(message?.parsed.subject).toBe('Hello');
    expect(message?.parsed.text?.trim()).toBe('Hi Ada');
    expect(message?.headers.get('message-id')).toBe('<fixed@example.test>');
  });

  it('answers a scripted 550 at RCPT', async () => {
    sink.onRecipient = (address) =>
      address === 'gone@example.test' ? { accept: false, code: 550, message: 'no such user' } : { accept: true };
    const transport = nodemailer.createTransport({ url: sink.url } as never);
    await expect(
      transport.sendMail({ from: 'app@example.test', to: 'gone@example.test', subject: 'x', text: 'x' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    transport.close();
  });
});

describe('DNS test server', () => {
  let dns: DnsTestServer;
  const resolver = new Resolver({ timeout: 300, tries: 1 });
  beforeAll(async () => {
    dns = await startDnsTestServer();
    resolver.setServers([dns.address]);
  });
  afterAll(() => dns.close());

  it('answers MX and A records from its fixture zones', async () => {
    await expect(resolver.resolveMx('mx.test')).resolves.toEqual([{ exchange: 'mail.mx.test', priority: 10 }]);
    await expect(resolver.resolve4('a-only.test')).resolves.toEqual(['192.0.2.10']);
  });

  it('answers NXDOMAIN for unknown names and no data for an empty zone', async () => {
    await expect(resolver.resolveMx('missing.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolveMx('empty.test')).rejects.toMatchObject({ code: 'ENODATA' });
  });

  it('never answers a silent zone, so the resolver times out', async () => {
    await expect(resolver.resolveMx('slow.test')).rejects.toMatchObject({ code: 'ETIMEOUT' });
  });
});
