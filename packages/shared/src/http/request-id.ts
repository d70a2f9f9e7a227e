import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runWithLogContext } from '../logger/request-context';

const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is sane, else a new one. */
export function requestIdFor(given: string | string[] | undefined): string {
  return typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
}

/** Takes the caller's `X-Request-Id` when it is sane, makes one otherwise, and echoes it back. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const id = requestIdFor(req.get('x-request-id'));
    req.headers['x-request-id'] = id;
    res.setHeader('X-Request-Id', id);
    runWithLogContext({ requestId: id }, next);
  };
}
