import { isDependencyUnavailable } from '../errors/unavailable';

/**
 * The items of one batch message (the events a producer had ready at once), each handled as if it
 * had come alone, under its own inbox key. The message may be acked once this resolves, when each
 * item is done or back in the queue on its own:
 * - a dependency down: its failure is thrown, so the consumer retries the whole message in place,
 *   and the items already done are dropped by their inbox rows;
 * - any other failure of one item (a malformed address, a statement Postgres refuses): `putBack`
 *   publishes it again alone, confirmed before the ack, so it is retried and in the end
 *   dead-lettered by itself, never taking the message's other items along.
 */
export async function handleEachAlone<T>(
  items: readonly T[],
  handle: (item: T) => Promise<void>,
  putBack: (item: T) => Promise<void>,
): Promise<void> {
  const outcomes = await Promise.allSettled(items.map(handle));
  const failures = outcomes.flatMap((outcome, index) =>
    outcome.status === 'rejected' ? [{ item: items[index]!, error: outcome.reason as unknown }] : [],
  );
  const unavailable = failures.find((failure) => isDependencyUnavailable(failure.error));
  if (unavailable) throw unavailable.error;
  await Promise.all(failures.map(({ item }) => putBack(item)));
}
