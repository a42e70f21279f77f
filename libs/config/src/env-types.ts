import { z } from 'zod';

// Small zod types for environment variables: every value arrives as a string.

export const envPort = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const envInt = (fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const envBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
    .transform((v) => v === 'true' || v === '1' || v === 'yes')
    // zod 4: prefault feeds the fallback through the transform; default would return it untouched.
    .prefault(fallback ? 'true' : 'false');

export const envUrl = (fallback: string, protocols: string[]) =>
  z
    .string()
    .default(fallback)
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `expected a ${protocols.join(' or ')} URL`,
    );

/** A comma-separated list; empty entries dropped. */
export const envList = (fallback: string[] = []) =>
  z
    .string()
    .optional()
    .transform((v) =>
      v === undefined
        ? fallback
        : v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
    );

export const envLogLevel = () =>
  z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

export const envNodeEnv = () => z.enum(['development', 'production', 'test']).default('development');
