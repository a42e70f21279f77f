import { z } from 'zod';
import { hasUnstorableText } from '../json/storable-text';
import { err, ok, type ProtocolError, type Result } from '../result';
import { jsonObjectSchema, type JsonObject } from '../xiaozhi/common-schemas';
import type { McpReply } from './model';

const wireToolSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  inputSchema: jsonObjectSchema.optional(),
  outputSchema: jsonObjectSchema.optional(),
  annotations: jsonObjectSchema.optional(),
});

export const LISTED_PROPERTY_TYPES = [
  'boolean',
  'integer',
  'string',
  'number',
  'array',
  'object',
  'null',
  'unknown',
] as const;
export type ListedPropertyType = (typeof LISTED_PROPERTY_TYPES)[number];

/** One argument as the device declared it in its inputSchema (`schema` is the declaration as sent). */
export const listedPropertySchema = z.object({
  name: z.string(),
  type: z.enum(LISTED_PROPERTY_TYPES),
  required: z.boolean(),
  default: z.unknown().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  schema: jsonObjectSchema,
});
export type ListedProperty = z.infer<typeof listedPropertySchema>;

/** One tool of a tools/list page, whichever dialect; `userOnly` from annotations.audience containing "user". */
export const listedToolSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  inputSchema: jsonObjectSchema,
  properties: z.array(listedPropertySchema),
  userOnly: z.boolean(),
  annotations: jsonObjectSchema.optional(),
  /** MCP 2025-06-18: the shape of the tool's structured result, when the device declares one. */
  outputSchema: jsonObjectSchema.optional(),
});
export type ListedTool = z.infer<typeof listedToolSchema>;

export const toolsListPageSchema = z.object({
  tools: z.array(listedToolSchema),
  /** xiaozhi: the name of the first tool that did not fit; ListenAI: an opaque token. Absent on the last page. */
  nextCursor: z.string().optional(),
  /** Entries that were not tools (no name), by position, so a catalog can say it is incomplete. */
  skipped: z.array(z.object({ index: z.int(), reason: z.string() })),
});
export type ToolsListPage = z.infer<typeof toolsListPageSchema>;

export type ReplyReadError = ProtocolError<'device_error' | 'malformed_result'>;

export function readToolsListPage(reply: McpReply): Result<ToolsListPage, ReplyReadError> {
  if (reply.outcome.kind === 'error') {
    return err({ kind: 'device_error', message: reply.outcome.error.message });
  }
  const result = z
    .looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() })
    .safeParse(reply.outcome.result);
  if (!result.success) {
    return err({ kind: 'malformed_result', message: 'a tools/list result needs a tools array' });
  }
  const tools: ListedTool[] = [];
  const skipped: { index: number; reason: string }[] = [];
  result.data.tools.forEach((raw, index) => {
    const tool = wireToolSchema.safeParse(raw);
    if (!tool.success) skipped.push({ index, reason: 'not a tool with a name' });
    // A tool Postgres cannot store could not be stored, marked or called by its name either: it is left out whole
    // (replacing the characters would change its name or its arguments' names), and the catalog says so.
    else if (hasUnstorableText(raw)) skipped.push({ index, reason: 'holds U+0000 or a lone surrogate' });
    else tools.push(listedTool(tool.data));
  });
  return ok({
    tools,
    ...(result.data.nextCursor !== undefined ? { nextCursor: result.data.nextCursor } : {}),
    skipped,
  });
}

function listedTool(t: z.infer<typeof wireToolSchema>): ListedTool {
  const inputSchema = t.inputSchema ?? { type: 'object', properties: {} };
  const audience = t.annotations?.['audience'];
  return {
    name: t.name,
    description: t.description ?? '',
    inputSchema,
    properties: listedProperties(inputSchema),
    userOnly: Array.isArray(audience) && audience.includes('user'),
    ...(t.annotations ? { annotations: t.annotations } : {}),
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
  };
}

function listedProperties(inputSchema: JsonObject): ListedProperty[] {
  const props = jsonObjectSchema.safeParse(inputSchema['properties']);
  const required = new Set(
    Array.isArray(inputSchema['required'])
      ? inputSchema['required'].filter((r) => typeof r === 'string')
      : [],
  );
  if (!props.success) return [];
  return Object.entries(props.data).map(([name, raw]) => {
    const schema = jsonObjectSchema.safeParse(raw).data ?? {};
    const type = LISTED_PROPERTY_TYPES.find((k) => k === schema['type'] && k !== 'unknown') ?? 'unknown';
    const num = (key: string) => (typeof schema[key] === 'number' ? { [key]: schema[key] } : {});
    return {
      name,
      type,
      required: required.has(name),
      ...('default' in schema ? { default: schema['default'] } : {}),
      ...num('minimum'),
      ...num('maximum'),
      schema,
    };
  });
}
