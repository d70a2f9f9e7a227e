import { AppError } from '@mailer/shared';

export const ContactErrorCodes = {
  EMAIL_TAKEN: 'CONTACT.EMAIL_TAKEN',
  INVALID: 'CONTACT.INVALID',
} as const;

/**
 * The one table the error middleware reads: every contact failure a client causes is a 422 (a body
 * past the byte limit is the common 413). An address refused by the address rule or the domain
 * verdict raises the shared `EMAIL.*` codes (422 in the common table).
 */
export const contactStatusByCode: Record<string, number> = {
  [ContactErrorCodes.EMAIL_TAKEN]: 422,
  [ContactErrorCodes.INVALID]: 422,
};

export const emailTaken = () => new AppError(ContactErrorCodes.EMAIL_TAKEN, 'email has already been taken');

export const invalidContact = (messages: string[]) =>
  new AppError(ContactErrorCodes.INVALID, messages[0] ?? 'contact is invalid', {}, messages);
