// A real broker (aedes over loopback, auto-subscribing each device as the product's broker does), the fake OTA
// server, and a server-side MQTT client: what every device-sim test runs against.
import mqtt, { type MqttClient } from 'mqtt';
import { deviceP2pTopic, macToTopicId, verifyMqttPassword } from '@fleet/protocol';
import type { Client } from 'aedes';
import { startTestMqttBroker, waitFor, type TestMqttBroker } from '@fleet/testing';
import {
  createDevice,
  FAST_TIMINGS,
  startFakeOtaServer,
  type DeviceOptions,
  type FakeOtaServer,
  type FakeOtaServerOptions,
  type SimDevice,
} from '../src';

export const SIGNING_KEY = 'device-sim-test-key';

export interface Uplink {
  readonly clientId: string;
  readonly topic: string;
  readonly text: string;
}

export interface Harness {
  readonly broker: TestMqttBroker;
  readonly ota: FakeOtaServer;
  /** The server side: subscribed to device-server. */
  readonly server: MqttClient;
  /** What the server client received on device-server, in order. */
  readonly inbox: string[];
  /** Every PUBLISH a device client made, as the broker saw it (with the sender). */
  readonly uplinks: Uplink[];
  /** SUBSCRIBE events per client id (the broker's own auto-subscription included). */
  readonly subscribes: Map<string, string[][]>;
  /** Device connections the broker saw end, and whether with a DISCONNECT packet. */
  readonly disconnects: { readonly clientId: string; readonly graceful: boolean }[];
  device(options?: Partial<DeviceOptions>): SimDevice;
  /** Connected, and the broker's subscription for this connection is in place. */
  waitOnline(device: SimDevice, connection?: number): Promise<void>;
  sendToDevice(device: SimDevice, text: string | Uint8Array): Promise<void>;
  sendMcp(device: SimDevice, request: string): Promise<void>;
  /** The `payload` of every mcp message this device published, cut out literally (some are not JSON). */
  mcpPayloads(device: SimDevice): string[];
  uplinksOf(device: SimDevice): Uplink[];
  /** The broker's side of a connection (aedes keeps them by client id; its typings do not say so). */
  brokerClient(clientId: string): Client | undefined;
  close(): Promise<void>;
}

const MCP_ENVELOPE = /^\{"session_id":"[^"]*","type":"mcp","payload":/;

export function literalPayload(envelope: string): string | undefined {
  const head = MCP_ENVELOPE.exec(envelope);
  return head && envelope.endsWith('}') ? envelope.slice(head[0].length, -1) : undefined;
}

export async function startHarness(ota: Partial<FakeOtaServerOptions> = {}): Promise<Harness> {
  const broker = await startTestMqttBroker({
    autoSubscribe: (client) => {
      const mac = client.id.split('@@@')[1];
      return mac ? `devices/p2p/${mac}` : undefined;
    },
  });
  // The gateway convention's HMAC password for devices; the test's own server client is let in as it is.
  broker.aedes.authenticate = (client, username, password, done) => {
    if (!client.id.includes('@@@')) return done(null, true);
    const keys = [{ id: 'test', secret: SIGNING_KEY }];
    const ok = verifyMqttPassword(keys, client.id, username ?? '', password?.toString() ?? '').ok;
    done(ok ? null : Object.assign(new Error('bad credentials'), { returnCode: 4 }), ok);
  };
  const uplinks: Uplink[] = [];
  const subscribes = new Map<string, string[][]>();
  broker.aedes.on('publish', (packet, client) => {
    if (client?.id.includes('@@@')) {
      uplinks.push({ clientId: client.id, topic: packet.topic, text: packet.payload.toString() });
    }
  });
  const disconnects: { clientId: string; graceful: boolean }[] = [];
  broker.aedes.on('clientDisconnect', (client) => {
    // aedes sets _disconnected only when the client sent DISCONNECT [MQTT-3.14.4-3].
    const graceful = (client as unknown as { _disconnected: boolean })._disconnected;
    if (client.id.includes('@@@')) disconnects.push({ clientId: client.id, graceful });
  });
  broker.aedes.on('subscribe', (subs, client) => {
    const list = subscribes.get(client.id) ?? [];
    list.push(subs.map((s) => s.topic));
    subscribes.set(client.id, list);
  });
  const fakeOta = await startFakeOtaServer({
    mqtt: { host: '127.0.0.1', port: broker.port },
    signingKey: SIGNING_KEY,
    ...ota,
  });
  const server = await mqtt.connectAsync(broker.url, { clientId: 'test-server', protocolVersion: 4 });
  const inbox: string[] = [];
  server.on('message', (_topic, payload) => inbox.push(payload.toString()));
  await server.subscribeAsync('device-server');
  const devices: SimDevice[] = [];

  const clientIdOf = (device: SimDevice) => device.clientId;
  const uplinksOf = (device: SimDevice) => {
    const mac = `@@@${macToTopicId(device.mac)}@@@`;
    return uplinks.filter((u) => u.clientId.includes(mac));
  };
  return {
    broker,
    ota: fakeOta,
    server,
    inbox,
    uplinks,
    subscribes,
    disconnects,
    device(options = {}) {
      const device = createDevice({
        otaUrl: fakeOta.url,
        mac: 'a0:85:e3:f4:49:34',
        timings: FAST_TIMINGS,
        ...options,
      });
      devices.push(device);
      return device;
    },
    async waitOnline(device, connection = Math.max(1, device.mqttConnectCount)) {
      await waitFor(
        () => device.connected && (subscribes.get(clientIdOf(device))?.length ?? 0) >= connection,
        { what: `${device.mac} online (connection ${connection})` },
      );
    },
    async sendToDevice(device, text) {
      await server.publishAsync(deviceP2pTopic(device.mac), Buffer.from(text), { qos: 0 });
    },
    async sendMcp(device, request) {
      await server.publishAsync(
        deviceP2pTopic(device.mac),
        `{"session_id":"","type":"mcp","payload":${request}}`,
      );
    },
    mcpPayloads(device) {
      return uplinksOf(device).flatMap((u) => {
        const payload = literalPayload(u.text);
        return payload === undefined ? [] : [payload];
      });
    },
    uplinksOf,
    brokerClient: (clientId) =>
      (broker.aedes as unknown as { clients: Record<string, Client> }).clients[clientId],
    async close() {
      await Promise.all(devices.map((d) => d.stop()));
      await server.endAsync(true);
      await fakeOta.close();
      await broker.close();
    },
  };
}

/** The reply a device gives to `{"jsonrpc":"2.0","id":<id>,"method":"ping"}`: a request that is always answered. */
export function pingRequest(id: number): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;
}

export function pingReply(id: number): string {
  return `{"jsonrpc":"2.0","id":${id},"error":{"message":"Method not implemented: ping"}}`;
}

export function replyWithId(payloads: readonly string[], id: number): string | undefined {
  return payloads.find((p) => p.startsWith(`{"jsonrpc":"2.0","id":${id},`));
}

export function toolCall(id: number, name: string, args: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}

/** The text of a tools/call result, parsed from a reply payload that is valid JSON. */
export function resultText(payload: string): string {
  const parsed = JSON.parse(payload) as { result: { content: { text: string }[] } };
  return parsed.result.content[0]!.text;
}
