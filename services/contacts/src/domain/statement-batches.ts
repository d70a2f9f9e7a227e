import { GroupCommit, isDependencyUnavailable, onePerOwner, type Pool } from '@mailer/shared';

/** What a batched statement made of one item: its answer (undefined: the caller's other path), or the error to fail it with. */
export type BatchOutcome<R> = { answer: R | undefined } | { error: unknown };

/** Items handled while a statement is in flight, written together by the next one. */
export type StatementBatches<T, R> = GroupCommit<T, BatchOutcome<R>>;

/**
 * The first item of each key in the batch: a statement cannot see its own inserts, so a second
 * item for a row it creates is answered undefined and takes the caller's other path after it commits.
 */
function firstOfTheirKind<T>(items: readonly T[], keysOf: (item: T) => string[]): boolean[] {
  const seen = new Set<string>();
  return items.map((item) => {
    const keys = keysOf(item);
    if (keys.some((key) => seen.has(key))) return false;
    for (const key of keys) seen.add(key);
    return true;
  });
}

async function alone<T, R>(write: (items: T[]) => Promise<Array<R | undefined>>, item: T): Promise<BatchOutcome<R>> {
  try {
    return { answer: (await write([item]))[0] };
  } catch (error) {
    return { error };
  }
}

/**
 * Group commit for a statement over many items, one per pool (see `GroupCommit`: no timer, a lone
 * item is written at the end of its turn): every caller with the same pool shares its statements.
 * `write` answers each item in order, in one statement that writes all or nothing; `keysOf` names
 * what two items of one statement must not share (a message, an address).
 */
export function statementBatchesPerPool<T, R>(
  write: (pool: Pool, items: T[]) => Promise<Array<R | undefined>>,
  keysOf: (item: T) => string[],
): (pool: Pool) => StatementBatches<T, R> {
  return onePerOwner((pool: Pool) => statementBatches((items) => write(pool, items), keysOf));
}

function statementBatches<T, R>(
  writeItems: (items: T[]) => Promise<Array<R | undefined>>,
  keysOf: (item: T) => string[],
): StatementBatches<T, R> {
  return new GroupCommit(async (items: T[]): Promise<Array<BatchOutcome<R>>> => {
    const inStatement = firstOfTheirKind(items, keysOf);
    const batch = items.filter((_, index) => inStatement[index]);
    try {
      const answers = (await writeItems(batch)).values();
      return inStatement.map((included) => ({ answer: included ? answers.next().value : undefined }));
    } catch (error) {
      // The statement wrote nothing. One item may be what failed it: each is tried alone, so that
      // only its own caller sees the error. Not when Postgres is unreachable: each would wait out
      // its own connection timeout before the batch's callers heard of it.
      if (batch.length === 1 || isDependencyUnavailable(error))
        return inStatement.map((included) => (included ? { error } : { answer: undefined }));
      const outcomes: Array<BatchOutcome<R>> = [];
      for (const [index, item] of items.entries())
        outcomes.push(inStatement[index] ? await alone(writeItems, item) : { answer: undefined });
      return outcomes;
    }
  });
}
