import { z } from 'zod';
import { quietHoursSchema, timeZoneSchema as timeZone } from '@fleet/domain';
import { macSchema } from '@fleet/protocol';

/** One argument's limit: what an operator allows beyond the device's own schema (DESIGN §4). */
const argumentLimit = z
  .strictObject({
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    enum: z
      .array(z.union([z.string(), z.number(), z.boolean()]))
      .min(1)
      .optional(),
    maxLength: z.int().min(0).optional(),
  })
  .refine((l) => Object.keys(l).length > 0, 'give at least one of minimum, maximum, enum, maxLength');

/** `{"self.audio_speaker.set_volume": {"volume": {"maximum": 70}}}`: per tool, per argument. */
export const groupLimits = z.record(
  z.string().min(1).max(200),
  z.record(z.string().min(1).max(100), argumentLimit),
);

const groupName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^,]+$/, 'no commas');

export const createGroupBody = z.strictObject({
  name: groupName,
  timeZone: timeZone.default('UTC'),
  limits: groupLimits.default({}),
  /** Announcements to the group's devices wait while its local time is inside (null: none). */
  quietHours: quietHoursSchema.nullable().default(null),
});

export const updateGroupBody = z
  .strictObject({
    name: groupName.optional(),
    timeZone: timeZone.optional(),
    limits: groupLimits.optional(),
    quietHours: quietHoursSchema.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'give at least one field to change');

export const membersBody = z
  .strictObject({
    add: z.array(macSchema).max(10_000).default([]),
    remove: z.array(macSchema).max(10_000).default([]),
  })
  .refine((b) => b.add.length + b.remove.length > 0, 'give devices to add or remove');

export const tagsBody = z.strictObject({
  tags: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(100)
        .regex(/^[^,]+$/, 'no commas'),
    )
    .max(50),
});
