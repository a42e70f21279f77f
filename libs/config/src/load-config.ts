import type { z } from 'zod';

/** Raised at start when the environment does not describe a runnable service; names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super('invalid configuration:\n' + problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Validates the environment against a schema whose keys are the variable names. Empty strings count as
 * unset, so `FOO= npm start` falls back to the default instead of failing on "".
 */
export function loadConfig<S extends z.ZodObject<z.ZodRawShape>>(schema: S, env: Env): z.infer<S> {
  const input: Env = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    input[key] = value === undefined || value.trim() === '' ? undefined : value;
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? '(root)'),
      message: issue.message,
    })),
  );
}
