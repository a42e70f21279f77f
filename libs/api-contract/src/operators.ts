import { z } from 'zod';
import { instant } from './common';
import { ROLES } from './vocabulary';

/** GET /operators and one operator: never a password hash. */
export const operatorViewSchema = z.strictObject({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  hasPassword: z.boolean(),
  oidcLinked: z.boolean(),
  disabledAt: instant.nullable(),
  createdAt: instant,
});
export type OperatorView = z.infer<typeof operatorViewSchema>;
