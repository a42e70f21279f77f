import { z } from 'zod';
import { instant } from './common';
import { ROLES } from './vocabulary';

export const operatorSchema = z.strictObject({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
});
export type Operator = z.infer<typeof operatorSchema>;

/** POST /auth/login, /auth/sign-in-link, the OIDC callback. */
export const signedInSchema = z.strictObject({
  token: z.string().describe('session token: send as `Authorization: Bearer <token>`; also set as a cookie'),
  expiresAt: instant,
  operator: operatorSchema,
});
export type SignedIn = z.infer<typeof signedInSchema>;

/** GET /auth/me. */
export const meSchema = operatorSchema.extend({
  via: z.enum(['api_key', 'session', 'oauth']),
  apiKeyId: z.uuid().optional(),
  sessionId: z.uuid().optional(),
});
export type Me = z.infer<typeof meSchema>;
