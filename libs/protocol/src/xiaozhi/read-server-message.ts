import { cjsonStringValue, getItemCaseInsensitive, isCJsonObject } from '../json/cjson-lookup';
import { parseCJson } from '../json/cjson-parse';
import type { CJsonObject } from '../json/cjson-value';
import { err, ok, type ProtocolError, type Result } from '../result';
import {
  acceptServerHello,
  type AcceptedServerHello,
  type ServerHelloRejection,
} from './server-hello-acceptance';

/** A server message as the firmware acts on it (for the simulator). */
export type DeviceSideServerMessage =
  | { readonly type: 'hello'; readonly hello: AcceptedServerHello }
  | { readonly type: 'goodbye'; readonly sessionId: string }
  | { readonly type: 'tts'; readonly state: 'start' | 'stop' }
  | { readonly type: 'tts'; readonly state: 'sentence_start'; readonly text: string }
  | { readonly type: 'stt'; readonly text: string }
  | { readonly type: 'llm'; readonly emotion: string }
  | { readonly type: 'mcp'; readonly payload: CJsonObject }
  | { readonly type: 'system'; readonly command: string }
  | { readonly type: 'alert'; readonly status: string; readonly message: string; readonly emotion: string }
  | { readonly type: 'custom'; readonly payload: CJsonObject };

export type DeviceSideRejection =
  | ProtocolError<'invalid_json' | 'type_not_string' | 'ignored' | 'unknown_type'>
  | (ProtocolError<'hello_rejected'> & { readonly reason: ServerHelloRejection });

/**
 * xiaozhi §2.2, the device's reading of one server message: cJSON lookups, `type` compared exactly, and the
 * checks after which the firmware does nothing (reported as `ignored`). A goodbye still has to match the current
 * session (`goodbyeApplies`).
 */
export function readServerMessageAsDevice(
  input: string | Uint8Array,
): Result<DeviceSideServerMessage, DeviceSideRejection> {
  const parsed = parseCJson(input);
  if (!parsed.ok) return parsed;
  const root = parsed.value;
  const str = (key: string): string | undefined => cjsonStringValue(getItemCaseInsensitive(root, key));
  const type = str('type');
  if (type === undefined) return err({ kind: 'type_not_string', message: 'type is missing or not a string' });
  const ignored = (why: string) => err({ kind: 'ignored' as const, message: `${type}: ${why}` });
  switch (type) {
    case 'hello': {
      const hello = acceptServerHello(root);
      return hello.ok
        ? ok({ type, hello: hello.value })
        : err({ kind: 'hello_rejected', message: hello.error.message, reason: hello.error.kind });
    }
    case 'goodbye': {
      const sessionId = str('session_id');
      return sessionId === undefined ? ignored('session_id is not a string') : ok({ type, sessionId });
    }
    case 'tts':
      return readTts(str('state'), str('text'), ignored);
    case 'stt': {
      const text = str('text');
      return text === undefined ? ignored('text is not a string') : ok({ type, text });
    }
    case 'llm': {
      const emotion = str('emotion');
      return emotion === undefined ? ignored('emotion is not a string') : ok({ type, emotion });
    }
    case 'mcp':
    case 'custom': {
      const payload = getItemCaseInsensitive(root, 'payload');
      return isCJsonObject(payload) ? ok({ type, payload }) : ignored('payload is not an object');
    }
    case 'system': {
      const command = str('command');
      return command === undefined ? ignored('command is not a string') : ok({ type, command });
    }
    case 'alert': {
      const [status, message, emotion] = [str('status'), str('message'), str('emotion')];
      if (status === undefined || message === undefined || emotion === undefined) {
        return ignored('status, message and emotion must be strings');
      }
      return ok({ type, status, message, emotion });
    }
    default:
      return err({ kind: 'unknown_type', message: `Unknown message type: ${type}` });
  }
}

function readTts(
  state: string | undefined,
  text: string | undefined,
  ignored: (why: string) => { ok: false; error: DeviceSideRejection },
): Result<DeviceSideServerMessage, DeviceSideRejection> {
  if (state === 'start' || state === 'stop') return ok({ type: 'tts', state });
  if (state !== 'sentence_start') return ignored('state is not start, sentence_start or stop');
  return text === undefined ? ignored('text is not a string') : ok({ type: 'tts', state, text });
}

/** xiaozhi §1.5: a server goodbye counts only when its session_id equals the device's current one. */
export function goodbyeApplies(message: DeviceSideServerMessage, currentSessionId: string): boolean {
  return message.type === 'goodbye' && message.sessionId === currentSessionId;
}
