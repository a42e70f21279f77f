import { hashClientId, isFirmwareClientId } from '../credentials/client-id-secret';
import { isSafeFirmwareVersion } from '../firmware-version';
import { normaliseMac, type Mac } from '../mac';
import { readJsonObject } from '../json/read-json-object';
import { withoutUnstorableText } from '../json/storable-text';
import type { OtaComplaint } from './complaint';
import { readOtaHeaders, type HeaderBag, type OtaHeaders } from './headers';
import { parseCompileTime, systemInfoSchema } from './system-info';

/** What the platform needs out of one check-in (xiaozhi §4.2 "How the device identifies itself"). */
export interface OtaCheckIn {
  /** Device-Id header, else the body's mac_address; lower case with colons. */
  readonly mac?: Mac;
  /** Client-Id header, else the body's uuid; only when shaped as the firmware makes it (a UUID). */
  readonly uuid?: string;
  /** A Client-Id was sent but not usable (too long, not a UUID): the check-in has no identity. */
  readonly clientIdRefused: boolean;
  readonly serialNumber?: string;
  /** application.version, else the User-Agent's version. */
  readonly firmwareVersion?: string;
  /** board.type: the model. */
  readonly boardType?: string;
  /** board.name, else the User-Agent prefix: the build variant. */
  readonly boardName?: string;
  /** ota.label: the running slot (it changes after an OTA). */
  readonly otaLabel?: string;
  /** application.compile_time as ISO 8601, when it could be read. */
  readonly compileTime?: string;
  readonly headers: OtaHeaders;
  /**
   * The body as sent, unknown fields included, except its `uuid`: the Client-Id is a device secret (DESIGN §3)
   * and what is stored or shown holds only `sha256:<hash>` of it. Undefined when the body was not a JSON object.
   */
  readonly systemInfo?: Record<string, unknown>;
  /**
   * Body fields dropped because they held U+0000 or a lone surrogate (Postgres stores neither), by dotted path:
   * the rest of the check-in is read and answered as if they had not been sent.
   */
  readonly unstorable: readonly string[];
  readonly complaints: readonly OtaComplaint[];
}

/** Far above a real system-info body (a few KB with the partition table). */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * Reads a check-in leniently (DESIGN §3: answer 200 whenever Device-Id is usable, log what looked wrong).
 * Never throws; whatever is missing or odd is left out and described in `complaints`.
 */
export function readOtaCheckIn(request: {
  headers: HeaderBag;
  body: string | Uint8Array | Record<string, unknown> | undefined;
}): OtaCheckIn {
  const { headers, complaints } = readOtaHeaders(request.headers);
  const { value: body, dropped: unstorable } = withoutUnstorableText(readBody(request.body, complaints));
  for (const path of unstorable) {
    complaints.push({ field: `body ${path}`, problem: 'held U+0000 or a lone surrogate: dropped' });
  }
  if (body) {
    const checked = systemInfoSchema.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        complaints.push({ field: `body ${issue.path.join('.')}`, problem: issue.message });
      }
    }
  }
  const str = (...path: string[]): string | undefined => {
    const value = path.reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      body,
    );
    return typeof value === 'string' ? value : undefined;
  };

  const bodyMac = str('mac_address');
  const bodyMacNormal = bodyMac === undefined ? undefined : normaliseMac(bodyMac);
  if (headers.deviceId && bodyMacNormal?.ok && bodyMacNormal.value !== headers.deviceId) {
    complaints.push({ field: 'body mac_address', problem: `differs from Device-Id ${headers.deviceId}` });
  }
  const bodyUuid = str('uuid');
  let uuid = headers.clientId;
  const headerRefused = headers.refused.includes('client-id');
  let clientIdRefused = headerRefused;
  if (uuid === undefined && !headerRefused && bodyUuid !== undefined) {
    if (isFirmwareClientId(bodyUuid)) uuid = bodyUuid;
    else {
      clientIdRefused = true;
      complaints.push({ field: 'body uuid', problem: 'not a UUID as the firmware makes it' });
    }
  }
  if (
    headers.clientId &&
    bodyUuid !== undefined &&
    bodyUuid.toLowerCase() !== headers.clientId.toLowerCase()
  ) {
    complaints.push({ field: 'body uuid', problem: 'differs from the Client-Id header' });
  }
  const firmwareVersion = str('application', 'version') ?? headers.userAgent?.version;
  if (firmwareVersion !== undefined && !isSafeFirmwareVersion(firmwareVersion)) {
    complaints.push({
      field: 'body application.version',
      problem: `${JSON.stringify(firmwareVersion.slice(0, 40))} is not dotted integers`,
    });
  }
  if (
    headers.userAgent?.version &&
    str('application', 'version') &&
    headers.userAgent.version !== str('application', 'version')
  ) {
    complaints.push({
      field: 'header user-agent',
      problem: `version differs from application.version ${str('application', 'version')}`,
    });
  }
  const compileText = str('application', 'compile_time');
  const compileTime = compileText === undefined ? undefined : parseCompileTime(compileText);
  if (compileText !== undefined && compileTime === undefined) {
    complaints.push({ field: 'body application.compile_time', problem: 'unreadable date' });
  }

  const mac = headers.deviceId ?? (bodyMacNormal?.ok ? bodyMacNormal.value : undefined);
  const fields = {
    mac,
    uuid,
    serialNumber: headers.serialNumber,
    firmwareVersion,
    boardType: str('board', 'type'),
    boardName: str('board', 'name') ?? headers.userAgent?.boardName,
    otaLabel: str('ota', 'label'),
    compileTime,
  };
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<
    typeof fields
  >;
  return {
    ...defined,
    clientIdRefused,
    headers,
    ...(body ? { systemInfo: withClientIdHashed(body) } : {}),
    unstorable,
    complaints,
  };
}

function readBody(
  body: string | Uint8Array | Record<string, unknown> | undefined,
  complaints: OtaComplaint[],
): Record<string, unknown> | undefined {
  if (body === undefined) {
    complaints.push({ field: 'body', problem: 'missing' });
    return undefined;
  }
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return body;
  const json = readJsonObject(body, MAX_BODY_BYTES);
  if (json.ok) return json.value;
  complaints.push({ field: 'body', problem: json.error.message });
  return undefined;
}

/** xiaozhi §4.2 `uuid` is the Client-Id: kept as its hash, so a stored or logged body never holds the secret. */
function withClientIdHashed(body: Record<string, unknown>): Record<string, unknown> {
  const uuid = body['uuid'];
  return typeof uuid === 'string' ? { ...body, uuid: `sha256:${hashClientId(uuid)}` } : body;
}
