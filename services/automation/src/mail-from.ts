/** The sender of workflow emails (MAIL_FROM), as nodemailer takes it. */
export interface MailFrom {
  name?: string | undefined;
  address: string;
}

/** Parses `Name <address>` or `address`. */
export function parseMailFrom(value: string): MailFrom {
  const match = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  if (match) return { name: match[1]?.replace(/^"|"$/g, '') || undefined, address: match[2]! };
  return { address: value.trim() };
}

/** The sender's domain, which ends every Message-ID it writes. */
export const senderDomain = (from: MailFrom): string => from.address.split('@')[1] ?? 'mailer.local';
