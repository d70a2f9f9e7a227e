/** What one event's client saw: every answer until a 202 or giving up. */
export interface EventAttempts {
  index: number;
  email: string;
  acknowledged: boolean;
  /** Answers other than 202 (503, 5xx, timeouts, refused connections) before the outcome. */
  refusals: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one event the way a careful client does: one Idempotency-Key for all its attempts, and on
 * 503 / 5xx / 429 / no answer it waits `Retry-After` (1 s when absent) and tries again, until a 202
 * or `giveUpAfterMs`. 409 (an earlier attempt with this key, e.g. one the client timed out on, is
 * still publishing) is retried too. Any other 4xx is final (the request itself is wrong).
 */
export async function sendWithRetries(
  options: {
    eventsUrl: string;
    key: string;
    idempotencyKey: string;
    body: { event: string; email: string };
    giveUpAfterMs: number;
  },
  index: number,
): Promise<EventAttempts> {
  const result: EventAttempts = { index, email: options.body.email, acknowledged: false, refusals: [] };
  const deadline = Date.now() + options.giveUpAfterMs;
  while (Date.now() < deadline) {
    let waitMs = 1000;
    try {
      const response = await fetch(`${options.eventsUrl}/v1/events`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.key}`,
          'content-type': 'application/json',
          'idempotency-key': options.idempotencyKey,
        },
        body: JSON.stringify(options.body),
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      if (response.status === 202) {
        result.acknowledged = true;
        return result;
      }
      result.refusals.push(String(response.status));
      if (response.status < 500 && response.status !== 429 && response.status !== 409) return result;
      const retryAfter = Number(response.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0) waitMs = retryAfter * 1000;
    } catch (error) {
      // No answer: the outcome is unknown; the same Idempotency-Key makes the retry safe.
      result.refusals.push(error instanceof Error ? error.name : 'error');
    }
    await sleep(Math.min(waitMs, Math.max(0, deadline - Date.now())));
  }
  return result;
}

/**
 * Starts `count` clients at `ratePerSecond`, each sending one event; `gate(i)` may hold the
 * start of client i (the fault schedule uses it so every fault lands in a stream of events).
 */
export async function steadyStream(
  count: number,
  ratePerSecond: number,
  gate: (index: number) => Promise<void>,
  client: (index: number) => Promise<EventAttempts>,
): Promise<EventAttempts[]> {
  const clients: Array<Promise<EventAttempts>> = [];
  let base = Date.now();
  let sinceBase = 0;
  for (let index = 0; index < count; index += 1) {
    const before = Date.now();
    await gate(index);
    if (Date.now() - before > 5) {
      base = Date.now();
      sinceBase = 0;
    }
    const due = base + (sinceBase * 1000) / ratePerSecond;
    if (due > Date.now()) await sleep(due - Date.now());
    sinceBase += 1;
    clients.push(client(index));
  }
  return Promise.all(clients);
}
