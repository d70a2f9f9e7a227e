import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Raised when the environment does not satisfy a service's schema; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

const FILE_SUFFIX = '_FILE';

/** The variable names a schema reads, when it is an object schema (the only kind services use). */
function variablesOf(schema: z.ZodType): Set<string> {
  const shape = (schema as { shape?: unknown }).shape;
  return new Set(shape && typeof shape === 'object' ? Object.keys(shape) : []);
}

/**
 * `NAME_FILE=/path` stands for `NAME=<the file's content>` (trailing newline dropped), the way
 * Docker and Kubernetes hand secrets to a container; only for variables the schema reads (other
 * programs' `*_FILE` variables are none of ours). A variable set directly wins over its file.
 */
function withFileVariables(env: NodeJS.ProcessEnv, variables: Set<string>): { env: NodeJS.ProcessEnv; problems: string[] } {
  const resolved: NodeJS.ProcessEnv = { ...env };
  const problems: string[] = [];
  for (const [key, path] of Object.entries(env)) {
    if (!key.endsWith(FILE_SUFFIX) || !path) continue;
    const name = key.slice(0, -FILE_SUFFIX.length);
    if (!variables.has(name) || env[name] !== undefined) continue;
    try {
      resolved[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${key}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return { env: resolved, problems };
}

/**
 * Parses `env` with `schema` and returns a frozen, typed config.
 * Every problem is reported with the variable it concerns, so an operator fixes them all in one go.
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): Readonly<z.output<S>> {
  const files = withFileVariables(env, variablesOf(schema));
  const result = schema.safeParse(files.env);
  const problems = [
    ...files.problems,
    ...(result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`)),
  ];
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return Object.freeze(result.data);
}
