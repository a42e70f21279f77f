import { z } from 'zod';
import { readJsonObject, type JsonReadErrorKind } from '../json/read-json-object';
import { err, ok, type ProtocolError, type Result } from '../result';
import { jsonObjectSchema } from '../xiaozhi/common-schemas';
import { describeZodError } from '../zod-issues';

// listenai.md: the ListenAI MCP envelope. No `jsonrpc` field; ids are strings.

/** Cloud → device. */
export const listenAiDownSchema = z.looseObject({
  action: z.literal('mcp'),
  cid: z.string(),
  sid: z.string(),
  code: z.string(),
  data: z.looseObject({
    method: z.string().min(1),
    id: z.string().min(1).optional(),
    params: jsonObjectSchema.optional(),
  }),
  desc: z.string(),
});

/** Device → cloud: flat, the method echoed; a tool failure comes as `result.isError:true`. */
export const listenAiUpSchema = z
  .looseObject({
    id: z.string().min(1),
    action: z.literal('mcp'),
    method: z.string().optional(),
    result: z.unknown().optional(),
    // Not in the seed; read anyway so a JSON-RPC style error is not lost.
    error: z.looseObject({ message: z.string(), code: z.number().optional() }).optional(),
  })
  .refine((m) => m.result !== undefined || m.error !== undefined, { message: 'neither result nor error' });

export type ListenAiDown = z.infer<typeof listenAiDownSchema>;
export type ListenAiUp = z.infer<typeof listenAiUpSchema>;

/** The JSON text of a cloud → device request or notification, in the seed's key order. */
export function encodeListenAiDown(m: {
  cid: string;
  sid: string;
  method: string;
  id?: string;
  params?: Record<string, unknown>;
}): string {
  const data = {
    method: m.method,
    ...(m.id !== undefined ? { id: m.id } : {}),
    ...(m.params !== undefined ? { params: m.params } : {}),
  };
  return JSON.stringify({ action: 'mcp', cid: m.cid, sid: m.sid, code: '0', data, desc: 'success' });
}

/** The JSON text of a device → cloud reply, in the seed's key order. */
export function encodeListenAiUp(m: {
  id: string;
  method?: string;
  result?: unknown;
  error?: { message: string; code?: number };
}): string {
  return JSON.stringify({
    id: m.id,
    action: 'mcp',
    ...(m.method !== undefined ? { method: m.method } : {}),
    ...(m.error !== undefined ? { error: m.error } : { result: m.result }),
  });
}

/** A cloud → device message as the link receives it from the platform, or why it is not one. */
export function readListenAiDown(
  input: string | Uint8Array,
  maxBytes = 1024 * 1024,
): Result<ListenAiDown, ProtocolError<JsonReadErrorKind | 'not_listenai'>> {
  const json = readJsonObject(input, maxBytes);
  if (!json.ok) return json;
  const parsed = listenAiDownSchema.safeParse(json.value);
  return parsed.success
    ? ok(parsed.data)
    : err({ kind: 'not_listenai', message: describeZodError(parsed.error) });
}

// A device → cloud message names its kind in `action`, near the start in the seed's key order. The link routes
// by it without parsing a whole frame (a tools/list page is kilobytes); anything without a readable action is
// routed as MCP, where the reader counts it and keeps it raw.
const ACTION_NEAR_START = /"action"\s*:\s*"([A-Za-z_]{1,32})"/;

export function listenAiActionOf(raw: Buffer): string | undefined {
  return ACTION_NEAR_START.exec(raw.toString('latin1', 0, Math.min(raw.length, 256)))?.[1];
}

// The seed's replies start with their id: a frame cut short or otherwise broken still says which request it
// answers, so the evidence can pair the unreadable bytes with their call instead of waiting for a timeout.
const ID_NEAR_START = /^\s*\{\s*"id"\s*:\s*"([^"\\]{1,64})"/;

export function listenAiIdNearStart(raw: string | Uint8Array): string | undefined {
  const text =
    typeof raw === 'string' ? raw.slice(0, 128) : Buffer.from(raw.subarray(0, 128)).toString('latin1');
  return ID_NEAR_START.exec(text)?.[1];
}
