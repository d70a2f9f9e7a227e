import { simpleParser, type AddressObject } from 'mailparser';
import { composeMimeMessage, type MimeMessageFields } from '../src/data-access/mime-message';

const fields = (overrides: Partial<MimeMessageFields> = {}): MimeMessageFields => ({
  from: { name: 'Acme News', address: 'news@acme.test' },
  to: 'ann@example.test',
  subject: 'News for Ann',
  html: '<p>Hi Ann</p>',
  text: 'Hi Ann',
  messageId: '<abc123@mailer.test>',
  headers: { 'List-Unsubscribe': '<http://127.0.0.1:3000/unsubscribe/x.y>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  ...overrides,
});

async function parse(message: MimeMessageFields) {
  const raw = composeMimeMessage(message);
  if (!raw) throw new Error('not composed');
  return { raw: raw.toString(), mail: await simpleParser(raw) };
}

const firstAddress = (value: AddressObject | AddressObject[] | undefined) => (Array.isArray(value) ? value[0] : value)?.value[0];

describe('composeMimeMessage', () => {
  it('writes a message a mail reader parses back to the same fields and headers', async () => {
    const { raw, mail } = await parse(fields());
    expect(mail.subject).toBe('News for Ann');
    expect(firstAddress(mail.from)).toEqual({ name: 'Acme News', address: 'news@acme.test' });
    expect(firstAddress(mail.to)?.address).toBe('ann@example.test');
    expect(mail.messageId).toBe('<abc123@mailer.test>');
    expect(mail.html).toBe('<p>Hi Ann</p>');
    expect(mail.text).toBe('Hi Ann');
    expect(mail.headerLines).toEqual(
      expect.arrayContaining([
        { key: 'list-unsubscribe', line: 'List-Unsubscribe: <http://127.0.0.1:3000/unsubscribe/x.y>' },
        { key: 'list-unsubscribe-post', line: 'List-Unsubscribe-Post: List-Unsubscribe=One-Click' },
      ]),
    );
    expect(mail.date?.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(raw).toMatch(/^MIME-Version: 1\.0$/m);
    // Every line ends in CRLF and none is longer than SMTP allows.
    expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(Math.max(...raw.split('\r\n').map((line) => line.length))).toBeLessThanOrEqual(998);
  });

  it('encodes what is not ASCII and keeps long lines and dots intact', async () => {
    const longLine = `${'word '.repeat(400)}end`;
    const { raw, mail } = await parse(
      fields({
        from: { name: 'Jörg "the" Müller', address: 'news@acme.test' },
        subject: 'Grüße, Ann – 10% off',
        html: `<p>Grüße</p>\n<p>${longLine}</p>`,
        text: `Line one\n.starts with a dot\r\nGrüße\n${longLine}`,
      }),
    );
    expect(mail.subject).toBe('Grüße, Ann – 10% off');
    expect(firstAddress(mail.from)?.name).toBe('Jörg "the" Müller');
    expect(mail.html).toBe(`<p>Grüße</p>\n<p>${longLine}</p>`);
    expect(mail.text).toBe(`Line one\n.starts with a dot\nGrüße\n${longLine}`);
    expect(raw).toContain('Content-Transfer-Encoding: quoted-printable');
    expect(Math.max(...raw.split('\r\n').map((line) => line.length))).toBeLessThanOrEqual(998);
  });

  it('sends a text-only email as one text part', async () => {
    const { raw, mail } = await parse(fields({ html: undefined, text: 'Only text' }));
    expect(raw).not.toContain('multipart');
    // The last line break is the one SMTP's end-of-data marker begins with.
    expect(mail.text).toBe('Only text\n');
    expect(mail.html).toBe(false);
  });

  it('never lets a value start a header of its own', async () => {
    const { mail } = await parse(
      fields({
        from: { name: 'Acme\r\nBcc: victim@example.test', address: 'news@acme.test' },
        subject: 'Hi\r\nBcc: victim@example.test',
        messageId: '<a@b>\r\nBcc: victim@example.test',
        headers: { 'X-Note\r\nBcc': 'one\nBcc: victim@example.test' },
      }),
    );
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.subject).toBe('Hi Bcc: victim@example.test');
  });

  it('gives content that quotes an earlier boundary a boundary of its own', async () => {
    const first = composeMimeMessage(fields())!.toString();
    const boundary = /boundary="([^"]+)"/.exec(first)![1]!;
    const prefix = boundary.slice(0, boundary.lastIndexOf('_') + 1);
    const text = `before\n--${prefix}zz\nContent-Type: text/html\n\n<b>forged</b>\n--${prefix}zz--\nafter`;
    const { mail } = await parse(fields({ text }));
    expect(mail.text).toBe(text);
    expect(mail.html).toBe('<p>Hi Ann</p>');
  });

  it('leaves addresses it cannot write plainly to nodemailer', () => {
    expect(composeMimeMessage(fields({ to: 'jörg@example.test' }))).toBeUndefined();
    expect(composeMimeMessage(fields({ to: 'ann@bücher.test' }))).toBeUndefined();
    expect(composeMimeMessage(fields({ to: '"ann smith"@example.test' }))).toBeUndefined();
    expect(composeMimeMessage(fields({ to: 'ann@example.test>, eve@example.test' }))).toBeUndefined();
  });
});
