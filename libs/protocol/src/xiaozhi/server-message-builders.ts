import { toHex } from '../udp/nonce';
import type { AudioParams, GlyphPush, JsonObject } from './common-schemas';
import type { ServerMessage } from './server-messages';

/** xiaozhi §1.4: the device's downlink decoder defaults; the server should announce what it sends. */
export const DEFAULT_DOWNLINK_AUDIO: AudioParams = {
  format: 'opus',
  sample_rate: 24000,
  channels: 1,
  frame_duration: 60,
};

export interface ServerHelloInput {
  readonly sessionId: string;
  readonly udpServer: string;
  readonly udpPort: number;
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  readonly audioParams?: AudioParams;
}

/** Server → device messages as typed values; `encodeServerMessage` writes them in the firmware's key order. */
export const serverMessage = {
  hello: (h: ServerHelloInput): ServerMessage => ({
    type: 'hello',
    version: 3,
    session_id: h.sessionId,
    transport: 'udp',
    udp: {
      server: h.udpServer,
      port: h.udpPort,
      encryption: 'aes-128-ctr',
      key: toHex(h.key),
      nonce: toHex(h.nonce),
    },
    audio_params: h.audioParams ?? DEFAULT_DOWNLINK_AUDIO,
  }),
  goodbye: (sessionId: string): ServerMessage => ({ type: 'goodbye', session_id: sessionId }),
  ttsStart: (sessionId: string): ServerMessage => ({ session_id: sessionId, type: 'tts', state: 'start' }),
  ttsSentenceStart: (sessionId: string, text: string, glyphPush?: GlyphPush): ServerMessage => ({
    session_id: sessionId,
    type: 'tts',
    state: 'sentence_start',
    text,
    ...(glyphPush ? { glyph_push: glyphPush } : {}),
  }),
  ttsStop: (sessionId: string): ServerMessage => ({ session_id: sessionId, type: 'tts', state: 'stop' }),
  stt: (sessionId: string, text: string, glyphPush?: GlyphPush): ServerMessage => ({
    session_id: sessionId,
    type: 'stt',
    text,
    ...(glyphPush ? { glyph_push: glyphPush } : {}),
  }),
  llm: (sessionId: string, emotion: string, text?: string): ServerMessage => ({
    session_id: sessionId,
    type: 'llm',
    ...(text !== undefined ? { text } : {}),
    emotion,
  }),
  mcp: (sessionId: string, payload: JsonObject): ServerMessage => ({
    session_id: sessionId,
    type: 'mcp',
    payload,
  }),
  system: (sessionId: string, command: string): ServerMessage => ({
    session_id: sessionId,
    type: 'system',
    command,
  }),
  alert: (sessionId: string, status: string, message: string, emotion: string): ServerMessage => ({
    session_id: sessionId,
    type: 'alert',
    status,
    message,
    emotion,
  }),
  custom: (sessionId: string, payload: JsonObject): ServerMessage => ({
    session_id: sessionId,
    type: 'custom',
    payload,
  }),
};
