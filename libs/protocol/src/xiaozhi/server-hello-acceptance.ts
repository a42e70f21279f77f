import { cjsonStringValue, getItemCaseInsensitive, isCJsonObject } from '../json/cjson-lookup';
import { parseCJson } from '../json/cjson-parse';
import type { CJsonValue } from '../json/cjson-value';
import { err, ok, type ProtocolError, type Result } from '../result';
import { fromHex16 } from '../udp/nonce';

export type ServerHelloRejection =
  | 'invalid_json'
  | 'not_hello'
  | 'wrong_transport'
  | 'missing_udp'
  | 'udp_server_not_string'
  | 'udp_port_invalid'
  | 'key_invalid'
  | 'nonce_invalid';

/** What the device keeps from a server hello it accepted. */
export interface AcceptedServerHello {
  readonly sessionId: string;
  readonly udpServer: string;
  readonly udpPort: number;
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  /** Downlink decoder settings; 24000 and 60 when not given as numbers. */
  readonly sampleRate: number;
  readonly frameDuration: number;
}

/**
 * The device's side of xiaozhi §1.4: accepts a hello only if type is "hello", transport "udp", udp.server a string,
 * udp.port a number in 1..65535 (its int value), and key and nonce hex of exactly 16 bytes. Any failure means the
 * hello is ignored and the device times out after 10 s. Lookups are cJSON's (case-insensitive, first duplicate).
 */
export function acceptServerHello(
  input: string | Uint8Array | CJsonValue,
): Result<AcceptedServerHello, ProtocolError<ServerHelloRejection>> {
  let root: CJsonValue;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const parsed = parseCJson(input);
    if (!parsed.ok) return parsed;
    root = parsed.value;
  } else root = input;
  const field = (obj: CJsonValue | undefined, key: string) => getItemCaseInsensitive(obj, key);

  if (cjsonStringValue(field(root, 'type')) !== 'hello') return reject('not_hello', 'type is not "hello"');
  if (cjsonStringValue(field(root, 'transport')) !== 'udp') {
    return reject('wrong_transport', 'transport is not "udp"');
  }
  const udp = field(root, 'udp');
  if (!isCJsonObject(udp)) return reject('missing_udp', 'no udp object');
  const server = cjsonStringValue(field(udp, 'server'));
  if (server === undefined) return reject('udp_server_not_string', 'udp.server is not a string');
  const port = field(udp, 'port');
  if (port?.kind !== 'number' || port.valueint < 1 || port.valueint > 65535) {
    return reject('udp_port_invalid', 'udp.port is not a number in 1..65535');
  }
  const key = fromHex16(cjsonStringValue(field(udp, 'key')) ?? '');
  if (!key.ok) return reject('key_invalid', `udp.key: ${key.error.message}`);
  const nonce = fromHex16(cjsonStringValue(field(udp, 'nonce')) ?? '');
  if (!nonce.ok) return reject('nonce_invalid', `udp.nonce: ${nonce.error.message}`);

  const audio = field(root, 'audio_params');
  const numberOr = (key: string, fallback: number): number => {
    const v = isCJsonObject(audio) ? field(audio, key) : undefined;
    return v?.kind === 'number' ? v.valueint : fallback;
  };
  return ok({
    sessionId: cjsonStringValue(field(root, 'session_id')) ?? '',
    udpServer: server,
    udpPort: port.valueint,
    key: key.value,
    nonce: nonce.value,
    sampleRate: numberOr('sample_rate', 24000),
    frameDuration: numberOr('frame_duration', 60),
  });
}

function reject(
  kind: ServerHelloRejection,
  message: string,
): { ok: false; error: ProtocolError<ServerHelloRejection> } {
  return err({ kind, message });
}
