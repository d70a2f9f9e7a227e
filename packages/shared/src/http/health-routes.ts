import { Router } from 'express';

/** A named probe of one dependency; it throws or rejects when that dependency is unusable. */
export type ReadinessCheck = { name: string; check: () => Promise<void> | void };

const CHECK_TIMEOUT_MS = 2000;

function withTimeout(probe: Promise<void> | void, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    Promise.resolve(probe).then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** `/healthz`: the process answers. `/readyz`: every dependency answers, each within 2 s. */
export function healthRoutes(service: string, checks: ReadinessCheck[]): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, error instanceof Error ? error.message : 'failed'] as const;
        }
      }),
    );
    const ready = results.every(([, outcome]) => outcome === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', service, checks: Object.fromEntries(results) });
  });
  return router;
}
