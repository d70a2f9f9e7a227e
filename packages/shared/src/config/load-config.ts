import { z } from 'zod';

/** Raised when the environment does not satisfy a service's schema; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses `env` with `schema` and returns a frozen, typed config.
 * Every problem is reported with the variable it concerns, so an operator fixes them all in one go.
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): Readonly<z.output<S>> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  return Object.freeze(result.data);
}
