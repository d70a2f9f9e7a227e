import express, { type RequestHandler } from 'express';
import { AppError, CommonErrorCodes } from '../errors/app-error';

/** Parses JSON bodies up to `limit`; what is not JSON is answered by the error middleware as 400/413. */
export function jsonBody(limit = '1mb'): RequestHandler {
  return express.json({ limit, strict: false, type: ['application/json', 'application/*+json'] });
}

/** The body as a plain object, or a 400: routes call this before validating fields. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(CommonErrorCodes.BAD_REQUEST, 'request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
