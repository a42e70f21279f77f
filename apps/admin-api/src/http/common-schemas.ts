import { z } from 'zod';
import { macSchema } from '@fleet/protocol';

// Small schemas that many routes share.

export const deviceIdParams = z.strictObject({ id: macSchema });
export const uuidParams = z.strictObject({ id: z.uuid() });

/** Query booleans arrive as text. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

/** An instant in ISO 8601 with an offset (`2026-01-01T00:00:00Z`). */
export const isoInstant = z.iso.datetime({ offset: true }).transform((v) => new Date(v));

/** A free-text reason a person gives for what they did; kept in evidence and audit events. */
export const reasonText = z.string().trim().min(1).max(2000);
