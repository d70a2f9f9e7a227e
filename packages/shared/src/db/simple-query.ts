import type { Pool, PoolClient } from './pool';

/**
 * Several statements sent as one simple-protocol query (`BEGIN; SELECT …`) cost one round trip
 * instead of one each; they take no parameters, so values are written into the text. These are
 * the two pieces that needs.
 */

/** The rows of the last statement of a simple query (pg answers one result per statement). */
export async function lastStatementRows<T>(client: PoolClient, text: string): Promise<T[]> {
  const answer: unknown = await client.query(text);
  const results = Array.isArray(answer) ? answer : [answer];
  const last = results.at(-1) as { rows?: T[] } | undefined;
  return last?.rows ?? [];
}

/** A bigint[] literal of ids read from the database, each checked to be an integer first. */
export function idArrayLiteral(ids: readonly unknown[]): string {
  const checked = ids.map((id) => {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new Error(`id ${String(id)} is not an integer`);
    return id;
  });
  return `'{${checked.join(',')}}'::bigint[]`;
}

/**
 * Runs `work` on one pooled client whose transaction `work` begins and commits itself, bundled into
 * its own statements (`BEGIN; SELECT …`, `…; COMMIT`). On any failure the transaction is rolled
 * back; a connection that cannot even roll back is discarded rather than lent again.
 */
export async function withBundledTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    return await work(client);
  } catch (error) {
    broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    throw error;
  } finally {
    client.release(broken);
  }
}
