import { randomBytes } from 'node:crypto';
import { encodeWord, encodeWords, foldLines, hasLongerLines, isPlainText } from 'nodemailer/lib/mime-funcs';
import { encode as quotedPrintable, wrap as wrapQuotedPrintable } from 'nodemailer/lib/qp';

export interface MimeAddress {
  name?: string | undefined;
  address: string;
}

export interface MimeMessageFields {
  from: MimeAddress;
  to: string;
  subject: string;
  html: string | undefined;
  text: string;
  messageId: string;
  headers: Record<string, string>;
}

/** An address we can write as it is: 7-bit, no spaces, quotes, brackets or separators. */
const SIMPLE_ADDRESS = /^[!#-'*+\-/-9=?A-Z^-~]+(?:\.[!#-'*+\-/-9=?A-Z^-~]+)*@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
// eslint-disable-next-line no-control-regex -- these are exactly what a header must not carry
const CONTROL = /[\u0000-\u001f\u007f]+/g;
/**
 * Boundaries: 96 random bits per process and a counter (random bytes per email cost a system call
 * each). A recipient sees the prefix, so content that contains it gets a boundary of its own.
 */
const BOUNDARY_PREFIX = `--_mailer_${randomBytes(12).toString('hex')}_`;
let boundaryCount = 0;

/** SMTP's hard limit is 998 octets a line; longer lines or 8-bit text are quoted-printable. */
const MAX_LINE = 998;

const oneLine = (value: string) => value.replace(CONTROL, ' ');

function header(name: string, value: string): string {
  return foldLines(`${name}: ${value}`, 76);
}

/** `"Name" <address>`, the name as an encoded word when it is not ASCII. */
function formatAddress({ name, address }: MimeAddress): string {
  const display = name ? oneLine(name).trim() : '';
  if (!display) return address;
  const quoted = isPlainText(display) ? `"${display.replace(/["\\]/g, '\\$&')}"` : encodeWord(display, 'Q', 52);
  return `${quoted} <${address}>`;
}

/** One body part: CRLF line ends, 7bit when it may go as it is, quoted-printable otherwise. */
function part(contentType: string, body: string): string {
  const crlf = body.replace(/\r\n|\r|\n/g, '\r\n');
  const plain = isPlainText(crlf) && !hasLongerLines(crlf, MAX_LINE);
  const encoding = plain ? '7bit' : 'quoted-printable';
  const content = plain ? crlf : wrapQuotedPrintable(quotedPrintable(crlf), 76);
  return `Content-Type: ${contentType}; charset=utf-8\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n${content}`;
}

/**
 * The whole RFC 5322 message in one buffer, or undefined for an address this writer does not
 * handle (8-bit or quoted local parts, international domains), which nodemailer's composer then
 * builds. Encoding is nodemailer's own (encoded words, folding, quoted-printable); what this adds
 * is that the message is one string, not a tree of streams: nodemailer composing and sending from
 * fields cost 0.5 ms of CPU per email, the finished buffer over a bare connection 0.08 ms
 * (docs/adr/0024-smtp-sending-pipeline.md).
 */
export function composeMimeMessage(fields: MimeMessageFields, date = new Date()): Buffer | undefined {
  if (!SIMPLE_ADDRESS.test(fields.to) || !SIMPLE_ADDRESS.test(fields.from.address)) return undefined;
  const subject = oneLine(fields.subject).trim();
  const lines = [
    header('From', formatAddress(fields.from)),
    header('To', fields.to),
    header('Subject', isPlainText(subject) ? subject : encodeWords(subject, 'Q', 52)),
    header('Message-ID', oneLine(fields.messageId)),
    header('Date', date.toUTCString().replace(/GMT/, '+0000')),
    'MIME-Version: 1.0',
  ];
  for (const [name, value] of Object.entries(fields.headers)) {
    const cleanName = name.replace(/[^!-9;-~]/g, '');
    if (cleanName) lines.push(header(cleanName, encodeWords(oneLine(value), 'Q', 52)));
  }
  let body: string;
  if (fields.html === undefined) {
    body = part('text/plain', fields.text);
    return Buffer.from(`${lines.join('\r\n')}\r\n${body}\r\n`);
  }
  const seen = fields.html.includes(BOUNDARY_PREFIX) || fields.text.includes(BOUNDARY_PREFIX);
  boundaryCount = (boundaryCount + 1) % Number.MAX_SAFE_INTEGER;
  const boundary = seen ? `--_mailer_${randomBytes(12).toString('hex')}` : `${BOUNDARY_PREFIX}${boundaryCount.toString(36)}`;
  lines.push(`Content-Type: multipart/alternative; boundary="${boundary}"`);
  body =
    `--${boundary}\r\n${part('text/plain', fields.text)}\r\n` +
    `--${boundary}\r\n${part('text/html', fields.html)}\r\n` +
    `--${boundary}--`;
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}\r\n`);
}
