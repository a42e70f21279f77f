import { z } from 'zod';
import { audioParamsSchema, jsonObjectSchema } from './common-schemas';

// xiaozhi §1.4 / §2.1: what a device publishes to `device-server`. Unknown fields are kept.

export const deviceHelloSchema = z.looseObject({
  type: z.literal('hello'),
  version: z.number(),
  transport: z.enum(['udp', 'websocket']),
  features: z
    .looseObject({
      aec: z.boolean().optional(),
      mcp: z.boolean().optional(),
      glyph_push: z.boolean().optional(),
    })
    .optional(),
  text_font: z
    .looseObject({ bundle: z.string(), charset: z.string(), size: z.number(), bpp: z.number() })
    .optional(),
  audio_params: audioParamsSchema.optional(),
});

export const LISTEN_MODES = ['auto', 'manual', 'realtime'] as const;
export type ListenMode = (typeof LISTEN_MODES)[number];

const sessionId = z.string();

export const listenMessageSchema = z.discriminatedUnion('state', [
  z.looseObject({
    session_id: sessionId,
    type: z.literal('listen'),
    state: z.literal('start'),
    mode: z.enum(LISTEN_MODES),
  }),
  z.looseObject({ session_id: sessionId, type: z.literal('listen'), state: z.literal('stop') }),
  z.looseObject({
    session_id: sessionId,
    type: z.literal('listen'),
    state: z.literal('detect'),
    text: z.string(),
  }),
]);

/** The firmware sends no reason (button) or `wake_word_detected`; other reasons are accepted as text. */
export const abortMessageSchema = z.looseObject({
  session_id: sessionId,
  type: z.literal('abort'),
  reason: z.string().optional(),
});

export const deviceGoodbyeSchema = z.looseObject({ session_id: sessionId, type: z.literal('goodbye') });

export const deviceMcpMessageSchema = z.looseObject({
  session_id: sessionId,
  type: z.literal('mcp'),
  payload: jsonObjectSchema,
});

export const deviceMessageSchema = z.discriminatedUnion('type', [
  deviceHelloSchema,
  listenMessageSchema,
  abortMessageSchema,
  deviceGoodbyeSchema,
  deviceMcpMessageSchema,
]);

export type DeviceHello = z.infer<typeof deviceHelloSchema>;
export type ListenMessage = z.infer<typeof listenMessageSchema>;
export type AbortMessage = z.infer<typeof abortMessageSchema>;
export type DeviceGoodbye = z.infer<typeof deviceGoodbyeSchema>;
export type DeviceMcpMessage = z.infer<typeof deviceMcpMessageSchema>;
export type DeviceMessage = z.infer<typeof deviceMessageSchema>;
export type DeviceMessageType = DeviceMessage['type'];
export const DEVICE_MESSAGE_TYPES: readonly DeviceMessageType[] = [
  'hello',
  'listen',
  'abort',
  'goodbye',
  'mcp',
];
