import { z } from 'zod';
import { audioParamsSchema, glyphPushSchema, jsonObjectSchema } from './common-schemas';

// xiaozhi §1.4 / §2.2: what the platform publishes to `devices/p2p/<mac_>`.

/** Hex that decodes to exactly 16 bytes, either case (xiaozhi §1.4, checked by the device). */
export const hex16Schema = z.string().regex(/^[0-9a-fA-F]{32}$/, '32 hex digits (16 bytes)');

/**
 * The server hello with the device's acceptance rules (xiaozhi §1.4): type "hello", transport "udp", a udp block
 * with a string server, a port in 1..65535, and key and nonce of 16 bytes each. `encryption` and `version` are
 * ignored by the device; `session_id` is optional ("" then).
 */
export const serverHelloSchema = z.looseObject({
  type: z.literal('hello'),
  version: z.number().optional(),
  session_id: z.string().optional(),
  transport: z.literal('udp'),
  udp: z.looseObject({
    server: z.string(),
    port: z.int().min(1).max(65535),
    encryption: z.string().optional(),
    key: hex16Schema,
    nonce: hex16Schema,
  }),
  audio_params: audioParamsSchema.partial().optional(),
});

const sessionId = z.string();

export const serverGoodbyeSchema = z.looseObject({ type: z.literal('goodbye'), session_id: sessionId });

export const ttsMessageSchema = z.discriminatedUnion('state', [
  z.looseObject({ session_id: sessionId, type: z.literal('tts'), state: z.literal('start') }),
  z.looseObject({
    session_id: sessionId,
    type: z.literal('tts'),
    state: z.literal('sentence_start'),
    text: z.string(),
    glyph_push: glyphPushSchema.optional(),
  }),
  z.looseObject({ session_id: sessionId, type: z.literal('tts'), state: z.literal('stop') }),
]);

export const sttMessageSchema = z.looseObject({
  session_id: sessionId,
  type: z.literal('stt'),
  text: z.string(),
  glyph_push: glyphPushSchema.optional(),
});

/** `emotion` names are free strings (neutral, happy, …); `text` is ignored by the device. */
export const llmMessageSchema = z.looseObject({
  session_id: sessionId,
  type: z.literal('llm'),
  text: z.string().optional(),
  emotion: z.string(),
});

export const serverMcpMessageSchema = z.looseObject({
  session_id: sessionId,
  type: z.literal('mcp'),
  payload: jsonObjectSchema,
});

/** Only `reboot` does anything; other commands are logged by the device. */
export const systemMessageSchema = z.looseObject({
  session_id: sessionId,
  type: z.literal('system'),
  command: z.string(),
});

export const alertMessageSchema = z.looseObject({
  session_id: sessionId,
  type: z.literal('alert'),
  status: z.string(),
  message: z.string(),
  emotion: z.string(),
});

/** Honoured only with CONFIG_RECEIVE_CUSTOM_MESSAGE (default off). */
export const customMessageSchema = z.looseObject({
  session_id: sessionId,
  type: z.literal('custom'),
  payload: jsonObjectSchema,
});

export const serverMessageSchema = z.discriminatedUnion('type', [
  serverHelloSchema,
  serverGoodbyeSchema,
  ttsMessageSchema,
  sttMessageSchema,
  llmMessageSchema,
  serverMcpMessageSchema,
  systemMessageSchema,
  alertMessageSchema,
  customMessageSchema,
]);

export type ServerHello = z.infer<typeof serverHelloSchema>;
export type ServerGoodbye = z.infer<typeof serverGoodbyeSchema>;
export type TtsMessage = z.infer<typeof ttsMessageSchema>;
export type SttMessage = z.infer<typeof sttMessageSchema>;
export type LlmMessage = z.infer<typeof llmMessageSchema>;
export type ServerMcpMessage = z.infer<typeof serverMcpMessageSchema>;
export type SystemMessage = z.infer<typeof systemMessageSchema>;
export type AlertMessage = z.infer<typeof alertMessageSchema>;
export type CustomMessage = z.infer<typeof customMessageSchema>;
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ServerMessageType = ServerMessage['type'];
