import type { z } from 'zod';

/** One line naming each failing field, for a ProtocolError message. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
