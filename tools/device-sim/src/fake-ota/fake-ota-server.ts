import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildOtaResponse, normaliseMac } from '@fleet/protocol';
import { otaCredentials } from './ota-credentials';

/** One request a device made to the fake OTA server, as it arrived. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Header names and values in the order they were sent. */
  readonly rawHeaders: readonly string[];
  readonly body: string;
  readonly at: number;
}

/** How to answer one check-in; every field optional. */
export interface OtaAnswerPlan {
  /** Default 200. */
  readonly status?: number;
  /** A raw body instead of the built answer (e.g. broken JSON). */
  readonly body?: string;
  readonly firmware?: { readonly version: string; readonly url: string; readonly force?: boolean };
  readonly activation?: { readonly code?: string; readonly message: string; readonly challenge: string };
  /** Leave the mqtt section out. */
  readonly withoutMqtt?: boolean;
}

export interface FakeOtaServerOptions {
  /** Where the devices should connect (the answer's mqtt.endpoint). */
  readonly mqtt: { readonly host: string; readonly port: number; readonly keepalive?: number };
  /** HMAC key of the gateway convention for the MQTT passwords. */
  readonly signingKey: string;
  readonly answer?: (checkIn: RecordedRequest) => OtaAnswerPlan | undefined;
  /** Status for POST …/activate (default 200). */
  readonly activate?: (request: RecordedRequest) => number;
  /** Keep every request (default true; off for load runs). */
  readonly record?: boolean;
  readonly host?: string;
  readonly port?: number;
}

export interface FakeOtaServer {
  /** The OTA URL to give devices (`…/xiaozhi/ota/`). */
  readonly url: string;
  readonly checkIns: RecordedRequest[];
  readonly activations: RecordedRequest[];
  readonly downloads: RecordedRequest[];
  /** Check-ins answered so far (counted even when not recorded). */
  readonly checkInCount: () => number;
  /** Serves `bytes` at `/firmware/<name>`; chunked (no Content-Length) or another status on request. */
  serveFirmware(name: string, bytes: Uint8Array, options?: { chunked?: boolean; status?: number }): string;
  close(): Promise<void>;
}

const OTA_PATH = /^\/xiaozhi\/ota\/?$/;
const ACTIVATE_PATH = /^\/xiaozhi\/ota\/?activate\/?$/;

/**
 * A stand-in for the platform's device HTTP (DESIGN §2): answers check-ins with MQTT credentials of the gateway
 * convention (and whatever `answer` adds), /activate, and firmware downloads. For tests, demos and load runs.
 */
export async function startFakeOtaServer(options: FakeOtaServerOptions): Promise<FakeOtaServer> {
  const record = options.record ?? true;
  const checkIns: RecordedRequest[] = [];
  const activations: RecordedRequest[] = [];
  const downloads: RecordedRequest[] = [];
  const images = new Map<string, { bytes: Uint8Array; chunked: boolean; status: number }>();
  let count = 0;

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path,
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body,
      at: Date.now(),
    };
    if (req.method === 'POST' && ACTIVATE_PATH.test(path)) {
      if (record) activations.push(recorded);
      return reply(res, options.activate?.(recorded) ?? 200, '{}');
    }
    if (req.method === 'POST' && OTA_PATH.test(path)) {
      count++;
      if (record) checkIns.push(recorded);
      return answerCheckIn(res, recorded, options);
    }
    const image = req.method === 'GET' ? images.get(path) : undefined;
    if (image) {
      if (record) downloads.push(recorded);
      res.statusCode = image.status;
      if (!image.chunked) res.setHeader('Content-Length', image.bytes.length);
      // write() before end(): Node then sends the body chunked instead of computing a Content-Length.
      res.write(image.bytes);
      return res.end();
    }
    reply(res, 404, '{"error":"not found"}');
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  const base = `http://${address}:${port}`;
  return {
    url: `${base}/xiaozhi/ota/`,
    checkIns,
    activations,
    downloads,
    checkInCount: () => count,
    serveFirmware(name, bytes, opts = {}) {
      images.set(`/firmware/${name}`, { bytes, chunked: opts.chunked ?? false, status: opts.status ?? 200 });
      return `${base}/firmware/${name}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answerCheckIn(res: ServerResponse, checkIn: RecordedRequest, options: FakeOtaServerOptions): void {
  const plan = options.answer?.(checkIn) ?? {};
  if (plan.body !== undefined) return reply(res, plan.status ?? 200, plan.body);
  const mac = normaliseMac(String(checkIn.headers['device-id'] ?? ''));
  if (!mac.ok) return reply(res, 400, '{"error":"Device-Id is not a MAC"}');
  const credentials = otaCredentials({
    mac: mac.value,
    uuid: String(checkIn.headers['client-id'] ?? ''),
    boardType: boardTypeOf(checkIn.body),
    signingKey: options.signingKey,
  });
  const built = buildOtaResponse({
    serverTime: { timestampMs: Date.now(), timezoneOffsetMinutes: 0 },
    ...(plan.firmware ? { firmware: plan.firmware } : {}),
    ...(plan.withoutMqtt
      ? {}
      : {
          mqtt: {
            host: options.mqtt.host,
            port: options.mqtt.port,
            keepalive: options.mqtt.keepalive,
            ...credentials,
          },
        }),
    ...(plan.activation ? { activation: plan.activation } : {}),
  });
  if (!built.ok) return reply(res, 500, JSON.stringify({ error: built.error.message }));
  reply(res, plan.status ?? 200, JSON.stringify(built.value));
}

function boardTypeOf(body: string): string {
  try {
    const type = (JSON.parse(body) as { board?: { type?: unknown } }).board?.type;
    return typeof type === 'string' && type !== '' ? type : 'sim';
  } catch {
    return 'sim';
  }
}

function reply(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
