import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runWithLogContext } from '../logger/request-context';

const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's `X-Request-Id` when it is sane, makes one otherwise, and echoes it back. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    const id = given && ACCEPTABLE_ID.test(given) ? given : randomUUID();
    req.headers['x-request-id'] = id;
    res.setHeader('X-Request-Id', id);
    runWithLogContext({ requestId: id }, next);
  };
}
