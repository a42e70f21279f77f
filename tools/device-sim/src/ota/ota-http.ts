import type { OutgoingHttpHeaders } from 'node:http';
import { activationHmac } from '@fleet/protocol';
import type { DeviceHost } from '../device/device-host';
import type { Runtime } from '../device/runtime';
import { systemInfo } from '../device/tool-callbacks';
import { fetchHttp } from '../util/http';

const MIN_URL_LENGTH = 10;
const ANSWER_LIMIT = 64 << 10;

/** Ota::SetupHttp (xiaozhi §4.1), in the firmware's order. */
export function otaHeaders(host: DeviceHost): OutgoingHttpHeaders {
  const serialNumber = host.efuse?.serialNumber;
  const { profile } = host.config;
  return {
    'Activation-Version': serialNumber ? '2' : '1',
    'Device-Id': host.mac,
    'Client-Id': host.nvs.uuid,
    ...(serialNumber ? { 'Serial-Number': serialNumber } : {}),
    'User-Agent': `${profile.config.boardName}/${host.runningImage().version}`,
    'Accept-Language': profile.config.language,
    'Content-Type': 'application/json',
  };
}

export type OtaHttpResult =
  { ok: true; status: number; body: Buffer } | { ok: false; status: number; error: string };

/** Ota::CheckVersion's request: POST the system info (xiaozhi §4.2) to the OTA URL. */
export async function postCheckIn(host: DeviceHost, rt: Runtime): Promise<OtaHttpResult> {
  const url = host.config.otaUrl;
  if (url.length < MIN_URL_LENGTH) return { ok: false, status: 0, error: `OTA URL too short: ${url}` };
  return post(host, rt, url, systemInfo(host));
}

/** Ota::Activate: POST <ota_url>[/]activate; `{}` without an eFuse serial, else the HMAC of the challenge. */
export async function postActivate(host: DeviceHost, rt: Runtime, challenge: string): Promise<OtaHttpResult> {
  const base = host.config.otaUrl;
  const url = base.endsWith('/') ? `${base}activate` : `${base}/activate`;
  const efuse = host.efuse;
  // Ota::GetActivationPayload: cJSON, so (unlike the firmware's hand-built messages) properly escaped.
  const body = efuse
    ? JSON.stringify({
        algorithm: 'hmac-sha256',
        serial_number: efuse.serialNumber,
        challenge,
        hmac: activationHmac(efuse.hmacKey, challenge),
      })
    : '{}';
  return post(host, rt, url, body);
}

async function post(host: DeviceHost, rt: Runtime, url: string, body: string): Promise<OtaHttpResult> {
  try {
    const res = await fetchHttp(
      {
        method: 'POST',
        url,
        headers: { ...otaHeaders(host), 'Content-Length': Buffer.byteLength(body) },
        body,
        timeoutMs: host.config.timings.httpTimeoutMs,
        signal: rt.signal,
      },
      ANSWER_LIMIT,
    );
    return { ok: true, status: res.status, body: res.body };
  } catch (err) {
    return { ok: false, status: 0, error: (err as Error).message };
  }
}
