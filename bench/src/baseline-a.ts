import path from 'node:path';
import { freePort } from '@mailer/testing';
import type { Cleanup } from './cleanup';
import { databaseUrlOf, type SeededContacts } from './seed-contacts';
import { startServiceProcess, type ServiceProcess } from './service-process';

/**
 * Baseline A (bare `node:http` + pg pool, one SELECT by id over the seeded contacts) as its own
 * process, registered with `cleanup`; `url` is what its closed-loop target calls.
 */
export async function startBaselineA(
  env: NodeJS.ProcessEnv,
  seeded: SeededContacts,
  cleanup: Cleanup,
): Promise<{ url: string; process: ServiceProcess }> {
  const port = await freePort();
  const baseline = await startServiceProcess(
    'baseline-a',
    path.join(__dirname, 'baseline-server.js'),
    {
      ...process.env,
      PORT: String(port),
      BASELINE_DATABASE_URL: databaseUrlOf(env, 'contacts'),
      BASELINE_FIRST_ID: String(seeded.firstId),
      BASELINE_LAST_ID: String(seeded.lastId),
    },
    `http://127.0.0.1:${port}/readyz`,
  );
  cleanup.add('baseline A', () => baseline.stop());
  return { url: `http://127.0.0.1:${port}`, process: baseline };
}
