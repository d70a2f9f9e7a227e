import { AppError } from '@mailer/shared';
import type { z } from 'zod';

export const SegmentErrorCodes = {
  INVALID: 'SEGMENT.INVALID',
  NAME_TAKEN: 'SEGMENT.NAME_TAKEN',
} as const;

/** Both are the client's to fix: 422. */
export const segmentStatusByCode: Record<string, number> = {
  [SegmentErrorCodes.INVALID]: 422,
  [SegmentErrorCodes.NAME_TAKEN]: 422,
};

/**
 * A rule or name that does not validate: `{ errors: [...], error, details: [{ path, message }] }`,
 * the service's 422 form plus the first problem and each problem with where in the rule it is.
 */
export function invalidSegment(issues: readonly z.core.$ZodIssue[]): AppError {
  const details = issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  const messages = details.map((detail) => (detail.path ? `${detail.path} ${detail.message}` : detail.message));
  return new AppError(SegmentErrorCodes.INVALID, messages[0] ?? 'segment is invalid', { error: messages[0] ?? 'segment is invalid', details }, messages);
}

export const segmentNameTaken = () =>
  new AppError(SegmentErrorCodes.NAME_TAKEN, 'name has already been taken', { error: 'name has already been taken', details: [{ path: 'name', message: 'has already been taken' }] }, ['name has already been taken']);
