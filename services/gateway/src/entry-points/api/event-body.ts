import type { IncomingMessage } from 'node:http';
import { AppError, CommonErrorCodes } from '@mailer/shared';
import { requestBody } from './request-body';

/** The body limit of one event (docs/api.md: at most 64 KiB). */
export const EVENT_BODY_LIMIT_BYTES = 64 * 1024;

/** `application/json` and the `application/*+json` family, as the services' JSON parser takes them. */
function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

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
  const carriesBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (carriesBody) {
    if (!declaredJson) {
      throw new AppError(CommonErrorCodes.UNSUPPORTED_MEDIA_TYPE, 'request body must be JSON (Content-Type: application/json)');
    }
    if (!isUtf8(parameters)) throw new AppError(CommonErrorCodes.UNSUPPORTED_MEDIA_TYPE, 'request body must be JSON in UTF-8');
  }
  const bytes = await requestBody(req, EVENT_BODY_LIMIT_BYTES);
  if (bytes === null) return declaredJson ? {} : undefined;
  try {
    // Like the JSON parser the services use: a UTF-8 byte-order mark is not part of the JSON.
    return JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw new AppError(CommonErrorCodes.BAD_REQUEST, 'request body is not valid JSON');
  }
}
