import type { RequestHandler } from 'express';
import { AppError, CommonErrorCodes } from '@mailer/shared';

const holdsNul = (value: unknown): boolean =>
  typeof value === 'string' ? value.includes('\0') : Array.isArray(value) && value.some(holdsNul);

/**
 * A form field holding a NUL character is refused before any route reads it: no address, password
 * or key name contains one, and Postgres cannot store one in text (it would fail as a 500).
 */
export const refuseNulFields: RequestHandler = (req, _res, next) => {
  const body = req.body as Record<string, unknown> | undefined;
  const refused = body !== undefined && Object.entries(body).some(([name, value]) => name.includes('\0') || holdsNul(value));
  next(refused ? new AppError(CommonErrorCodes.BAD_REQUEST, 'form fields must not contain NUL characters') : undefined);
};
