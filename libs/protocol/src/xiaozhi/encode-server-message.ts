import { assertNever } from '../result';
import type { JsonObject } from './common-schemas';
import type { ServerMessage } from './server-messages';

/**
 * The JSON text of a server → device message with the key order of xiaozhi §1.4/§2.2 (hello and goodbye start
 * with `type`, everything else with `session_id`); fields beyond the documented ones follow in their own order.
 */
export function encodeServerMessage(message: ServerMessage): string {
  return JSON.stringify(canonical(message));
}

function canonical(m: ServerMessage): JsonObject {
  switch (m.type) {
    case 'hello':
      return ordered(
        {
          ...m,
          udp: ordered(m.udp, ['server', 'port', 'encryption', 'key', 'nonce']),
          audio_params: m.audio_params && ordered(m.audio_params, AUDIO_KEYS),
        },
        ['type', 'version', 'session_id', 'transport', 'udp', 'audio_params'],
      );
    case 'goodbye':
      return ordered(m, ['type', 'session_id']);
    case 'tts':
      return ordered(m, ['session_id', 'type', 'state', 'text', 'glyph_push']);
    case 'stt':
      return ordered(m, ['session_id', 'type', 'text', 'glyph_push']);
    case 'llm':
      return ordered(m, ['session_id', 'type', 'text', 'emotion']);
    case 'mcp':
    case 'custom':
      return ordered(m, ['session_id', 'type', 'payload']);
    case 'system':
      return ordered(m, ['session_id', 'type', 'command']);
    case 'alert':
      return ordered(m, ['session_id', 'type', 'status', 'message', 'emotion']);
    default:
      return assertNever(m, 'server message');
  }
}

const AUDIO_KEYS = ['format', 'sample_rate', 'channels', 'frame_duration'];

function ordered(source: object, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  const entries = Object.entries(source);
  const put = (k: string, v: unknown): void => {
    if (v !== undefined) {
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
  };
  for (const key of keys) put(key, entries.find(([k]) => k === key)?.[1]);
  for (const [k, v] of entries) if (!keys.includes(k)) put(k, v);
  return out;
}
