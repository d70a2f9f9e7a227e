import { existsSync, writeFileSync } from 'node:fs';

/**
 * TEST-ONLY crash switch for the crash-point matrix (test/chaos/crash-points.chaos.test.ts).
 * `AUTOMATION_CRASH_AT` names one point; the first time the worker reaches it the process SIGKILLs
 * itself, as a lost node would (no shutdown hook runs). With `AUTOMATION_CRASH_ONCE_FILE` it crashes
 * only while that file does not exist (created right before the kill), so a restart runs clean.
 * Unset in production: then `crashPoint` is one comparison.
 */
export const CRASH_POINTS = [
  'after_ack',
  'after_claim',
  'after_smtp_accepted',
  'after_ledger_commit',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

function armedPoint(value: string | undefined): CrashPoint | undefined {
  if (value === undefined || value === '') return undefined;
  const point = CRASH_POINTS.find((candidate) => candidate === value);
  // A typo must not silently run a matrix case that never crashes.
  if (!point) throw new Error(`AUTOMATION_CRASH_AT must be one of ${CRASH_POINTS.join(', ')}; got ${value}`);
  return point;
}

const armed = armedPoint(process.env.AUTOMATION_CRASH_AT);
const onceFile = process.env.AUTOMATION_CRASH_ONCE_FILE || undefined;

export function crashPoint(point: CrashPoint): void {
  if (point !== armed) return;
  if (onceFile !== undefined) {
    if (existsSync(onceFile)) return;
    writeFileSync(onceFile, `${point} ${process.pid}\n`);
  }
  process.kill(process.pid, 'SIGKILL');
}
