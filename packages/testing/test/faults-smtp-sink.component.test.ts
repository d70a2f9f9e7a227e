import nodemailer from 'nodemailer';
import { startSmtpSink, type SmtpSink } from '@mailer/testing';

const send = (sink: SmtpSink, to: string, timeouts: { socketTimeout?: number } = {}) => {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true, ...timeouts });
  return transport
    .sendMail({ from: 'app@example.test', to, subject: 'fault', text: 'body', messageId: `<${to}>` })
    .finally(() => transport.close());
};

describe('SMTP sink faults', () => {
  let sink: SmtpSink;
  beforeEach(async () => {
    sink = await startSmtpSink();
  });
  afterEach(() => sink.close());

  it('greeting-421 refuses the connection with 421 and stores nothing; lifted, mail flows again', async () => {
    sink.fault = 'greeting-421';
    await expect(send(sink, 'busy@example.test')).rejects.toMatchObject({ responseCode: 421 });
    expect(sink.faultCounts['greeting-421']).toBe(1);
    expect(sink.messages).toHaveLength(0);
    sink.fault = 'none';
    await send(sink, 'busy@example.test');
    expect(sink.messagesTo('busy@example.test')).toHaveLength(1);
  });

  it('hang-on-data never answers DATA: the client times out, nothing is stored, close() is prompt', async () => {
    sink.fault = 'hang-on-data';
    const started = Date.now();
    await expect(send(sink, 'hang@example.test', { socketTimeout: 500 })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(sink.faultCounts['hang-on-data']).toBe(1);
    expect(sink.messages).toHaveLength(0);
    const closing = Date.now();
    await sink.close();
    expect(Date.now() - closing).toBeLessThan(2000);
    sink = await startSmtpSink(); // for afterEach
  });

  it('drop-after-store keeps the message but the client sees a broken connection, not a 250', async () => {
    sink.fault = 'drop-after-store';
    const outcome = await send(sink, 'dropped@example.test').then(
      () => 'accepted',
      (error: { code?: string }) => error.code,
    );
    expect(outcome).not.toBe('accepted');
    expect(sink.messagesTo('dropped@example.test')).toHaveLength(1);
    expect(sink.messagesTo('dropped@example.test')[0]?.headers.get('message-id')).toBe('<dropped@example.test>');
    expect(sink.faultCounts['drop-after-store']).toBe(1);
  });

  it('per-recipient verdicts still work beside the faults (451 then accept)', async () => {
    sink.onRecipient = (_address, attempt) =>
      attempt === 1 ? { accept: false, code: 451, message: 'try later' } : { accept: true };
    await expect(send(sink, 'retry@example.test')).rejects.toMatchObject({ responseCode: 451 });
    await send(sink, 'retry@example.test');
    expect(sink.messagesTo('retry@example.test')).toHaveLength(1);
  });
});
