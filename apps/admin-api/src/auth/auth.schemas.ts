import { z } from 'zod';
import { ROLES } from '@fleet/auth';
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

export const operatorView = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
});

export const signedInView = z.object({
  token: z.string().describe('session token: send as `Authorization: Bearer <token>`; also set as a cookie'),
  expiresAt: z.iso.datetime(),
  operator: operatorView,
});

export const whoAmIView = operatorView.extend({
  via: z.enum(['api_key', 'session']),
  apiKeyId: z.uuid().optional(),
  sessionId: z.uuid().optional(),
});

/** The OIDC callback's query: whatever the provider sends (code, state, iss, error...). */
export const oidcCallbackQuery = z.record(z.string(), z.string());
