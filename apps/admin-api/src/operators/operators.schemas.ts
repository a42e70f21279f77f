import { z } from 'zod';
import { ROLES } from '@fleet/auth';

/** Long enough that guessing is hopeless even without the sign-in throttle (NIST 800-63B asks for 8+). */
export const password = z.string().min(12, 'at least 12 characters').max(1024);

export const createOperatorBody = z.strictObject({
  email: z.email().max(320),
  name: z.string().trim().min(1).max(200),
  role: z.enum(ROLES),
  /** Omit for people who only sign in through OpenID Connect. */
  password: password.optional(),
});

export const updateOperatorBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    role: z.enum(ROLES).optional(),
    password: password.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'give at least one field to change');

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export { operatorViewSchema as operatorView, type OperatorView } from '@fleet/api-contract';
