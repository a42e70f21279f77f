import { z } from 'zod';
import { password } from '../operators/operators.schemas';

export const loginBody = z.strictObject({
  // Not z.email(): it wants a dot in the domain, and the first admin of a local install is admin@localhost.
  email: z
    .string()
    .max(320)
    .regex(/^[^@\s]+@[^@\s]+$/, 'an email address'),
  password: z.string().min(1).max(1024),
});

export const changePasswordBody = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  password: password.describe('the new password'),
});

export const signInLinkBody = z.strictObject({
  token: z.string().min(20).max(200).describe('the part of the printed link after `#token=`'),
  password: password.describe('the password to set'),
});

/** The OIDC callback's query: whatever the provider sends (code, state, iss, error...). */
export const oidcCallbackQuery = z.record(z.string(), z.string());

// The answer, from the contract (DESIGN §8): one copy, which the OpenAPI document and the tests use too.
export {
  meSchema as whoAmIView,
  operatorSchema as operatorView,
  signedInSchema as signedInView,
} from '@fleet/api-contract';
