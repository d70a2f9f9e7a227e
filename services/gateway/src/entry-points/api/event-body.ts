import type { IncomingMessage } from 'node:http';
import { carriesBody, declaresUtf8, isJsonMediaType, notJsonBody, notUtf8Body, parseJsonBytes } from '@mailer/shared';
import { requestBody } from './request-body';

/** The body limit of one event (docs/api.md: at most 64 KiB). */
export const EVENT_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * One event's JSON body: a media type other than JSON (or a charset other than UTF-8) is a 415
 * before a byte is read; more than 64 KiB a 413 (before and after any Content-Encoding is undone);
 * what does not parse a 400. No body reads as the services' JSON parser reads it: `{}` when it is
 * declared JSON (then a 422 listing the missing fields), nothing otherwise (a 400).
 */
export async function readEventBody(req: IncomingMessage): Promise<unknown> {
  const contentType = req.headers['content-type'] ?? '';
  const declaredJson = isJsonMediaType((contentType.split(';')[0] ?? '').trim().toLowerCase());
  if (carriesBody(req.headers)) {
    if (!declaredJson) throw notJsonBody();
    if (!declaresUtf8(contentType)) throw notUtf8Body();
  }
  const bytes = await requestBody(req, EVENT_BODY_LIMIT_BYTES);
  if (bytes === null) return declaredJson ? {} : undefined;
  return parseJsonBytes(bytes);
}
