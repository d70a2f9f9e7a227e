import type { IncomingMessage } from 'node:http';
import { AppError, carriesBody, CommonErrorCodes, isJsonMediaType, notJsonBody, parseJsonBytes } from '@mailer/shared';
import { requestBody } from './request-body';

/** The body limit of one event (docs/api.md: at most 64 KiB). */
export const EVENT_BODY_LIMIT_BYTES = 64 * 1024;

/** A charset other than UTF-8 (or one we cannot name) is refused rather than guessed at. */
function isUtf8(parameters: string[]): boolean {
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=', 2).map((part) => part.trim().toLowerCase());
    if (name === 'charset' && !['utf-8', 'utf8', '"utf-8"', '"utf8"'].includes(value)) return false;
  }
  return true;
}

/**
 * One event's JSON body: a media type other than JSON (or a charset other than UTF-8) is a 415
 * before a byte is read; more than 64 KiB a 413 (before and after any Content-Encoding is undone);
 * what does not parse a 400. No body reads as the services' JSON parser reads it: `{}` when it is
 * declared JSON (then a 422 listing the missing fields), nothing otherwise (a 400).
 */
export async function readEventBody(req: IncomingMessage): Promise<unknown> {
  const [mediaType = '', ...parameters] = (req.headers['content-type'] ?? '').split(';');
  const declaredJson = isJsonMediaType(mediaType.trim().toLowerCase());
  if (carriesBody(req.headers)) {
    if (!declaredJson) throw notJsonBody();
    if (!isUtf8(parameters)) throw new AppError(CommonErrorCodes.UNSUPPORTED_MEDIA_TYPE, 'request body must be JSON in UTF-8');
  }
  const bytes = await requestBody(req, EVENT_BODY_LIMIT_BYTES);
  if (bytes === null) return declaredJson ? {} : undefined;
  return parseJsonBytes(bytes);
}
