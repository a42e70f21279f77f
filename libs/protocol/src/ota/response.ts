import { z } from 'zod';
import { parseClientId } from '../credentials/client-id';
import { isSafeFirmwareVersion } from '../firmware-version';
import { err, ok, type ProtocolError, type Result } from '../result';
import { deviceP2pTopic, DEVICE_SERVER_TOPIC } from '../topics';

// xiaozhi §1.1: every key of the mqtt/websocket objects is copied into NVS, whose keys are at most 15 characters.
const NVS_KEY_MAX = 15;
// xiaozhi §1.2 / MqttProtocol: "host:port" split at the first ':' and the port read with std::stoi, so no IPv6
// literal and nothing but digits after the colon. DESIGN §3: the port is always explicit.
const ENDPOINT = /^([^:\s/]+):(\d{1,5})$/;

function isExplicitEndpoint(endpoint: string): boolean {
  const port = Number(ENDPOINT.exec(endpoint)?.[2]);
  return port >= 1 && port <= 65535;
}

function nvsKeys(section: string) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    for (const [key, v] of Object.entries(value)) {
      if (key.length > NVS_KEY_MAX) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${section} key longer than ${NVS_KEY_MAX} characters`,
        });
      }
      if (typeof v !== 'string' && typeof v !== 'number') {
        ctx.addIssue({ code: 'custom', path: [key], message: 'only strings and numbers are stored' });
      }
    }
  };
}

export const otaServerTimeSchema = z.object({
  timestamp: z.number(),
  timezone_offset: z.number().optional(),
});

/** firmware.version is dotted integers only: anything std::stoi cannot read crashes the device (xiaozhi §4.3). */
export const otaFirmwareSchema = z.object({
  version: z.string().refine(isSafeFirmwareVersion, 'dotted integers only'),
  url: z.string(),
  force: z.union([z.literal(0), z.literal(1)]).optional(),
});

export const otaMqttSchema = z
  .looseObject({
    endpoint: z.string().refine(isExplicitEndpoint, 'host:port with an explicit port in 1..65535'),
    client_id: z.string().min(1),
    username: z.string().min(1),
    password: z.string().min(1),
    publish_topic: z.string().min(1),
    subscribe_topic: z.string().optional(),
    keepalive: z.int().min(1).max(65535).optional(),
  })
  .superRefine(nvsKeys('mqtt'));

export const otaWebsocketSchema = z
  .looseObject({ url: z.string().min(1), token: z.string().optional(), version: z.int().optional() })
  .superRefine(nvsKeys('websocket'));

/** An activation code always comes with a challenge (without one the device retries /activate forever). */
export const otaActivationSchema = z
  .looseObject({
    code: z.string().regex(/^\d+$/, 'digits only').optional(),
    message: z.string().optional(),
    challenge: z.string().optional(),
    timeout_ms: z.number().optional(),
  })
  .refine((a) => a.code === undefined || a.challenge !== undefined, {
    message: 'a code needs a challenge',
    path: ['challenge'],
  });

/** xiaozhi §4.3 with the platform's rules (DESIGN §3). Every section is optional. */
export const otaResponseSchema = z.object({
  server_time: otaServerTimeSchema.optional(),
  firmware: otaFirmwareSchema.optional(),
  mqtt: otaMqttSchema.optional(),
  websocket: otaWebsocketSchema.optional(),
  activation: otaActivationSchema.optional(),
});
export type OtaResponse = z.infer<typeof otaResponseSchema>;

export interface OtaResponseInput {
  readonly serverTime?: { readonly timestampMs: number; readonly timezoneOffsetMinutes?: number };
  /** `force` is 1 only when asked for; left at 1 the device would reinstall on every boot. */
  readonly firmware?: { readonly version: string; readonly url: string; readonly force?: boolean };
  readonly mqtt?: {
    readonly host: string;
    readonly port: number;
    readonly clientId: string;
    readonly username: string;
    readonly password: string;
    readonly keepalive?: number;
  };
  readonly websocket?: { readonly url: string; readonly token?: string; readonly version?: number };
  readonly activation?: {
    readonly code?: string;
    readonly message: string;
    readonly challenge: string;
    readonly timeoutMs?: number;
  };
}

export type OtaResponseError = ProtocolError<'invalid_ota_response'> & { readonly issues: readonly string[] };

/** The OTA answer in the firmware's section and key order, checked against otaResponseSchema. */
export function buildOtaResponse(input: OtaResponseInput): Result<OtaResponse, OtaResponseError> {
  const issues: string[] = [];
  const response: Record<string, unknown> = {};
  if (input.serverTime) {
    response['server_time'] = {
      timestamp: input.serverTime.timestampMs,
      timezone_offset: input.serverTime.timezoneOffsetMinutes ?? 0,
    };
  }
  if (input.firmware) {
    response['firmware'] = {
      version: input.firmware.version,
      url: input.firmware.url,
      force: input.firmware.force ? 1 : 0,
    };
  }
  if (input.mqtt) {
    const m = input.mqtt;
    const client = parseClientId(m.clientId);
    if (!client.ok) issues.push(`mqtt.client_id: ${client.error.message}`);
    response['mqtt'] = {
      endpoint: `${m.host}:${m.port}`,
      client_id: m.clientId,
      username: m.username,
      password: m.password,
      publish_topic: DEVICE_SERVER_TOPIC,
      ...(client.ok ? { subscribe_topic: deviceP2pTopic(client.value.mac) } : {}),
      ...(m.keepalive !== undefined ? { keepalive: m.keepalive } : {}),
    };
  }
  if (input.websocket) response['websocket'] = { ...input.websocket };
  if (input.activation) {
    const a = input.activation;
    response['activation'] = {
      ...(a.code !== undefined ? { code: a.code } : {}),
      message: a.message,
      challenge: a.challenge,
      ...(a.timeoutMs !== undefined ? { timeout_ms: a.timeoutMs } : {}),
    };
  }
  const parsed = otaResponseSchema.safeParse(response);
  if (!parsed.success) issues.push(...parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  if (issues.length > 0 || !parsed.success) {
    return err({ kind: 'invalid_ota_response', message: issues.join('; '), issues });
  }
  return ok(parsed.data);
}

/** The rules as a list of problems for an OTA answer built elsewhere (empty when it is fine). */
export function validateOtaResponse(response: unknown): string[] {
  const parsed = otaResponseSchema.safeParse(response);
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}
