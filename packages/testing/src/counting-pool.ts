import type { Pool } from '@mailer/shared';

type Method = (...args: unknown[]) => unknown;

/**
 * The pool as the service uses it, counting every statement sent through it, whether by
 * `pool.query` or by a client it lends (a transaction's BEGIN and COMMIT count too): on this
 * machine each statement is a round trip that wakes two processes, which is what the hot paths save.
 */
export function countingPool(pool: Pool): { pool: Pool; statements: () => number } {
  let statements = 0;
  const counted = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key, object);
        if (typeof value !== 'function') return value;
        const method = (value as Method).bind(object);
        if (key === 'query') {
          return (...args: unknown[]) => {
            statements += 1;
            return method(...args);
          };
        }
        // A lent client counts too; only the promise form of connect is used by the service.
        if (key === 'connect' && object === pool)
          return async () => counted(await (method() as Promise<object>));
        return method;
      },
    });
  return { pool: counted(pool), statements: () => statements };
}
