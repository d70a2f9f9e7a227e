import type { ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import { AppError, CommonErrorCodes } from '../errors/app-error';
import { bodyDigest, type Identity } from '../internal-auth/identity-signature';

/** The body-parser error type of a body that is not the one its identity signature covers. */
export const BODY_SIGNATURE_MISMATCH = 'identity.body.mismatch';

/**
 * When the request carries a verified identity (`requireIdentity` ran first), the body read must be
 * the one the gateway signed: otherwise a captured header could carry another body. A body parser's
 * `verify` option (express.json, express.text), given the bytes before they are parsed.
 */
export function verifySignedBody(_req: unknown, res: ServerResponse, body: Buffer): void {
  const identity = (res as ServerResponse & { locals?: { identity?: Identity } }).locals?.identity;
  if (identity && bodyDigest(body) !== identity.bodyDigest) {
    throw Object.assign(new Error('request body does not match its identity signature'), { type: BODY_SIGNATURE_MISMATCH });
  }
}

const JSON_TYPES = ['application/json', 'application/*+json'];

/** The refusal of a body whose Content-Type is not JSON (415), as every JSON route words it. */
export const notJsonBody = () =>
  new AppError(CommonErrorCodes.UNSUPPORTED_MEDIA_TYPE, 'request body must be JSON (Content-Type: application/json)');

/** The refusal of a JSON body declared in a charset other than UTF-8 (415): refused rather than guessed at. */
export const notUtf8Body = () => new AppError(CommonErrorCodes.UNSUPPORTED_MEDIA_TYPE, 'request body must be JSON in UTF-8');

/** Whether a Content-Type's parameters name no charset, or UTF-8 (its registered name, any case, quoted or not). */
export function declaresUtf8(contentType: string): boolean {
  for (const parameter of contentType.split(';').slice(1)) {
    const [name, value = ''] = parameter.split('=', 2).map((part) => part.trim().toLowerCase());
    if (name === 'charset' && !['utf-8', '"utf-8"'].includes(value)) return false;
  }
  return true;
}

/** A media type (lower case, no parameters) JSON routes take: `application/json` or `application/*+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** JSON text as the services' parser reads it: a UTF-8 byte-order mark is not part of it; not JSON is a 400. */
export function parseJsonBytes(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw new AppError(CommonErrorCodes.BAD_REQUEST, 'request body is not valid JSON');
  }
}

/** Whether the request carries body bytes (a declared length above zero, or a chunked body). */
export function carriesBody(headers: NodeJS.Dict<string | string[]>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = Number(headers['content-length']);
  return Number.isFinite(length) && length > 0;
}

/**
 * Parses JSON bodies up to `limit` (bytes, or a size such as '1mb'). A body of another media type,
 * or JSON declared in another charset than UTF-8, is a 415 before a byte is read; what is not JSON
 * is answered by the error middleware as 400, too large as 413.
 */
export function jsonBody(limit: string | number = '1mb'): RequestHandler {
  const parse = express.json({ limit, strict: false, type: JSON_TYPES, verify: verifySignedBody });
  return (req, res, next) => {
    if (carriesBody(req.headers)) {
      if (!req.is(JSON_TYPES)) return next(notJsonBody());
      if (!declaresUtf8(req.headers['content-type'] ?? '')) return next(notUtf8Body());
    }
    parse(req, res, next);
  };
}

/** The body as a plain object, or a 400: routes call this before validating fields. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(CommonErrorCodes.BAD_REQUEST, 'request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
