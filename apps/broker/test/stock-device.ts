import mqtt, { type MqttClient } from 'mqtt';
import { z } from 'zod';

// What a stock xiaozhi device does at boot (xiaozhi §4), with mqtt.js as its MQTT client: a client nobody here
// wrote, connecting only with what the OTA answer gave it and subscribing to nothing.

export interface StockIdentity {
  mac: string;
  uuid: string;
  board?: string;
  version?: string;
  otaLabel?: string;
  serialNumber?: string;
}

export function systemInfoBody({
  mac,
  uuid,
  board = 'bread-compact-wifi',
  version = '2.4.2',
  otaLabel = 'ota_0',
}: StockIdentity): string {
  // Key order and quirks as the firmware sends them: heap size as a string, a non-ISO compile time, and the
  // space before the partition table.
  return (
    `{"version":2,"language":"zh-CN","flash_size":16777216,"minimum_free_heap_size":"8318340",` +
    `"mac_address":"${mac}","uuid":"${uuid}","chip_model_name":"esp32s3",` +
    `"chip_info":{"model":9,"cores":2,"revision":2,"features":18},` +
    `"application":{"name":"xiaozhi","version":"${version}","compile_time":"Aug  8 2026T08:33:45Z","idf_version":"v5.5.2","elf_sha256":"${'ab'.repeat(32)}"},` +
    `"partition_table": [{"label":"nvs","type":1,"subtype":2,"address":36864,"size":16384}],` +
    `"ota":{"label":"${otaLabel}"},"display":{"monochrome":false,"width":240,"height":240},` +
    `"board":{"type":"${board}","name":"${board}","manufacturer":"","ssid":"MyWiFi","rssi":-52,"channel":6,"ip":"192.168.1.23","mac":"${mac}"}}`
  );
}

export function checkInHeaders(d: StockIdentity): Record<string, string> {
  return {
    'Activation-Version': d.serialNumber ? '2' : '1',
    'Device-Id': d.mac,
    'Client-Id': d.uuid,
    ...(d.serialNumber ? { 'Serial-Number': d.serialNumber } : {}),
    'User-Agent': `${d.board ?? 'bread-compact-wifi'}/${d.version ?? '2.4.2'}`,
    'Accept-Language': 'zh-CN',
    'Content-Type': 'application/json',
  };
}

const mqttSection = z.object({
  endpoint: z.string(),
  client_id: z.string(),
  username: z.string(),
  password: z.string(),
  publish_topic: z.string(),
  subscribe_topic: z.string().optional(),
  keepalive: z.number().optional(),
});
export type MqttSection = z.infer<typeof mqttSection>;

export async function checkIn(
  httpUrl: string,
  d: StockIdentity,
  path = '/xiaozhi/ota/',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${httpUrl}${path}`, {
    method: 'POST',
    headers: checkInHeaders(d),
    body: systemInfoBody(d),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function bootCredentials(httpUrl: string, d: StockIdentity): Promise<MqttSection> {
  const { status, body } = await checkIn(httpUrl, d);
  if (status !== 200) throw new Error(`check-in answered ${status}`);
  return mqttSection.parse(body['mqtt']);
}

/** Connects like the firmware: the answer's endpoint, client id, username and password; no subscription. */
export function connectLikeDevice(
  creds: MqttSection,
  override: { password?: string; port?: number } = {},
): Promise<MqttClient> {
  const [host, port] = creds.endpoint.split(':');
  return mqtt.connectAsync({
    host,
    port: override.port ?? Number(port),
    protocolVersion: 4,
    clean: true,
    clientId: creds.client_id,
    username: creds.username,
    password: override.password ?? creds.password,
    keepalive: creds.keepalive ?? 240,
    reconnectPeriod: 0,
  });
}

let counter = 0;
export function newDeviceIdentity(): StockIdentity {
  counter++;
  const suffix =
    (process.pid % 256).toString(16).padStart(2, '0') + ':' + (counter % 256).toString(16).padStart(2, '0');
  const mac = `a0:85:e3:${Math.floor(Math.random() * 256)
    .toString(16)
    .padStart(2, '0')}:${suffix}`;
  return { mac, uuid: crypto.randomUUID() };
}

/** POST <ota_url>activate as the firmware does (xiaozhi §4.3), with the check-in's headers. */
export async function activate(
  httpUrl: string,
  d: StockIdentity,
  body: unknown = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${httpUrl}/xiaozhi/ota/activate`, {
    method: 'POST',
    headers: checkInHeaders(d),
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
