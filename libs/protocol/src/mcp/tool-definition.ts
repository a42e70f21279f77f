import { z } from 'zod';
import { INT32_MAX, INT32_MIN } from '../json/cjson-value';

// xiaozhi §3.2: the firmware's Property holds a C int, so every integer a tool declares fits 32 bits.
const int32 = z.int().min(INT32_MIN).max(INT32_MAX);
const propertyName = z.string().min(1);

export const booleanPropertySchema = z.object({
  name: propertyName,
  type: z.literal('boolean'),
  default: z.boolean().optional(),
});

export const integerPropertySchema = z
  .object({
    name: propertyName,
    type: z.literal('integer'),
    default: int32.optional(),
    minimum: int32.optional(),
    maximum: int32.optional(),
  })
  // mcp_server.h Property(): "Default value must be within the specified range".
  .refine((p) => p.default === undefined || p.minimum === undefined || p.default >= p.minimum, {
    message: 'default is below minimum',
  })
  .refine((p) => p.default === undefined || p.maximum === undefined || p.default <= p.maximum, {
    message: 'default is above maximum',
  });

export const stringPropertySchema = z.object({
  name: propertyName,
  type: z.literal('string'),
  default: z.string().optional(),
});

/** One argument of a firmware tool: the three types `mcp_server.h` knows, with an optional default and range. */
export const toolPropertySchema = z.discriminatedUnion('type', [
  booleanPropertySchema,
  integerPropertySchema,
  stringPropertySchema,
]);

/** A tool as the firmware registers it; `userOnly` tools carry `annotations.audience:["user"]` in tools/list. */
export const toolDefinitionSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  properties: z.array(toolPropertySchema).refine((ps) => new Set(ps.map((p) => p.name)).size === ps.length, {
    message: 'property names must be unique',
  }),
  userOnly: z.boolean().default(false),
});

export type ToolProperty = z.infer<typeof toolPropertySchema>;
export type ToolPropertyType = ToolProperty['type'];
export type ToolDefinition = z.infer<typeof toolDefinitionSchema>;
export type FirmwareArgumentValue = boolean | number | string;
