import { toolReturn, type ToolCallbackOutcome } from '@fleet/protocol';
import { fetchHttp, openHttp, readBody } from '../util/http';
import type { DeviceHost } from './device-host';
import type { Runtime } from './runtime';

// A tiny but well-formed JPEG (SOI, EOI): what the simulator "captures" from its screen and camera.
const FAKE_JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9]);
const SNAPSHOT_BOUNDARY = '----ESP32_SCREEN_SNAPSHOT_BOUNDARY';
const CAMERA_BOUNDARY = '----ESP32_CAMERA_BOUNDARY';
const IMAGE_LIMIT = 2 << 20;

const threw = (message: string): ToolCallbackOutcome => ({ kind: 'threw', message });
const TRUE: ToolCallbackOutcome = { kind: 'returned', value: toolReturn.bool(true) };

function filePart(boundary: string, field: string, filename: string): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    FAKE_JPEG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/** xiaozhi §3.4 #10: POST the screen as multipart; errors verbatim (unescaped by the reply builder). */
export async function uploadSnapshot(
  host: DeviceHost,
  rt: Runtime,
  url: string,
): Promise<ToolCallbackOutcome> {
  let status: number;
  try {
    const res = await openHttp({
      method: 'POST',
      url,
      headers: { 'Content-Type': `multipart/form-data; boundary=${SNAPSHOT_BOUNDARY}` },
      body: filePart(SNAPSHOT_BOUNDARY, 'file', 'screenshot.jpg'),
      timeoutMs: host.config.timings.httpTimeoutMs,
      signal: rt.signal,
    });
    status = res.statusCode ?? 0;
    res.resume();
  } catch {
    return threw(`Failed to open URL: ${url}`);
  }
  return status === 200 ? TRUE : threw(`Unexpected status code: ${status}`);
}

/** xiaozhi §3.4 #11: GET an image and show it. */
export async function previewImage(host: DeviceHost, rt: Runtime, url: string): Promise<ToolCallbackOutcome> {
  let res;
  try {
    res = await openHttp({
      method: 'GET',
      url,
      timeoutMs: host.config.timings.httpTimeoutMs,
      signal: rt.signal,
    });
  } catch {
    return threw(`Failed to open URL: ${url}`);
  }
  if (res.statusCode !== 200) {
    res.resume();
    return threw(`Unexpected status code: ${res.statusCode ?? 0}`);
  }
  try {
    await readBody(res, IMAGE_LIMIT);
  } catch {
    return threw(`Failed to download image: ${url}`);
  }
  return TRUE;
}

/**
 * xiaozhi §3.4 #5: a photo and the question POSTed to the explain URL from `initialize`, with Device-Id,
 * Client-Id and (for a non-empty token) a Bearer header; the answer's body is the tool's text.
 */
export async function takePhoto(
  host: DeviceHost,
  rt: Runtime,
  question: string,
): Promise<ToolCallbackOutcome> {
  const vision = rt.vision;
  if (!vision || vision.url === '') return threw('Image explain URL or token is not set');
  const body = Buffer.concat([
    Buffer.from(
      `--${CAMERA_BOUNDARY}\r\nContent-Disposition: form-data; name="question"\r\n\r\n${question}\r\n`,
    ),
    filePart(CAMERA_BOUNDARY, 'file', 'camera.jpg'),
  ]);
  try {
    const res = await fetchHttp({
      method: 'POST',
      url: vision.url,
      headers: {
        'Device-Id': host.mac,
        'Client-Id': host.nvs.uuid,
        ...(vision.token !== '' ? { Authorization: `Bearer ${vision.token}` } : {}),
        'Content-Type': `multipart/form-data; boundary=${CAMERA_BOUNDARY}`,
      },
      body,
      timeoutMs: host.config.timings.httpTimeoutMs,
      signal: rt.signal,
    });
    return { kind: 'returned', value: toolReturn.string(res.body.toString('utf8')) };
  } catch {
    return threw('Failed to connect to explain URL');
  }
}
