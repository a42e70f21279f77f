// The pub/sub load in a process of its own: P simulated devices publish a device reply, M subscribers read the
// fan-in. The publishers keep at most `window` messages in flight (published but not yet received by every
// subscriber), so the figure is the broker's sustained rate, not the size of a queue. Forked by broker-pubsub.
import mqtt, { type MqttClient } from 'mqtt';
import { createFleet, startFakeOtaServer, type FakeOtaServer, type Fleet } from '@fleet/device-sim';
import { decodeUplinkWrapper, FLEET_TOPIC_FILTERS, fleetUplinkTopic } from '@fleet/protocol';

export interface PubSubOptions {
  /** `ours`: devices check in at otaUrl and publish to device-server; `plain`: fleet topics on a plain broker. */
  mode: 'ours' | 'plain';
  mqtt: { host: string; port: number };
  otaUrl?: string;
  subscriberAuth?: { username: string; password: string };
  publishers: number;
  subscribers: number;
  window: number;
  warmupMs: number;
  measureMs: number;
  payload: string;
}

export interface Counts {
  at: number;
  published: number;
  received: number;
}

export type PubSubMessage =
  | { type: 'ready' }
  | { type: 'window'; phase: 'start' | 'end'; counts: Counts }
  | { type: 'done'; lost: number; verified: boolean; firstError?: string };

const o = JSON.parse(process.argv[2] ?? '{}') as PubSubOptions;
const send = (m: PubSubMessage) => process.send?.(m);

let published = 0;
let received = 0;
let lost = 0;
let verified = false;
let firstError: string | undefined;
const payload = Buffer.from(o.payload);

async function connectSubscribers(): Promise<MqttClient[]> {
  return Promise.all(
    Array.from({ length: o.subscribers }, async (_, i) => {
      const client = await mqtt.connectAsync({
        host: o.mqtt.host,
        port: o.mqtt.port,
        protocolVersion: 4,
        clientId: `bench-sub-${process.pid}-${i}`,
        reconnectPeriod: 0,
        ...(o.subscriberAuth ?? {}),
      });
      client.on('message', (_topic, message) => {
        if (received++ === 0) verify(message);
        schedulePump();
      });
      await client.subscribeAsync(FLEET_TOPIC_FILTERS.allUplinks, { qos: 0 });
      return client;
    }),
  );
}

/** The first delivery is checked: on our broker the wrapper must carry the device's exact bytes. */
function verify(message: Buffer): void {
  if (o.mode === 'plain') {
    verified = message.equals(payload);
    return;
  }
  const decoded = decodeUplinkWrapper(message);
  verified = decoded.ok && Buffer.from(decoded.value.bytes).equals(payload);
  if (!decoded.ok) firstError = decoded.error.message;
}

async function bootPublishers(): Promise<{ fleet: Fleet; ota?: FakeOtaServer }> {
  const ota =
    o.mode === 'plain'
      ? await startFakeOtaServer({ mqtt: { ...o.mqtt, keepalive: 240 }, signingKey: 'bench', record: false })
      : undefined;
  const fleet = createFleet({
    count: o.publishers,
    otaUrl: ota?.url ?? o.otaUrl ?? '',
    macPrefix: '02:5d',
    timings: { bootMs: 0 },
    recordLimit: 0,
  });
  await fleet.start();
  await fleet.waitFor((s) => s.connected === o.publishers, 120_000);
  return { fleet, ...(ota ? { ota } : {}) };
}

let pumpScheduled = false;
function schedulePump(): void {
  if (pumpScheduled) return;
  pumpScheduled = true;
  setImmediate(pump);
}

let fleetRef: Fleet | undefined;
let topics: string[] = [];
let next = 0;
let running = false;
function pump(): void {
  pumpScheduled = false;
  const devices = fleetRef?.devices;
  if (!running || !devices) return;
  while (published - lost - received / o.subscribers < o.window) {
    const i = next++ % devices.length;
    if (!devices[i]!.publishRaw(payload, topics[i])) break;
    published++;
  }
}

/** QoS 0 may drop: a window that stops moving for 500 ms is written off as lost, so the run goes on. */
function watchStalls(): NodeJS.Timeout {
  let last = -1;
  return setInterval(() => {
    if (received === last) {
      lost = published - received / o.subscribers;
      schedulePump();
    }
    last = received;
  }, 500);
}

const counts = (): Counts => ({ at: Date.now(), published, received });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const subscribers = await connectSubscribers();
  const { fleet, ota } = await bootPublishers();
  fleetRef = fleet;
  topics = fleet.devices.map((d) => (o.mode === 'plain' ? fleetUplinkTopic(d.mac, 'mcp') : 'device-server'));
  send({ type: 'ready' });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  running = true;
  const stalls = watchStalls();
  pump();
  await sleep(o.warmupMs);
  send({ type: 'window', phase: 'start', counts: counts() });
  await sleep(o.measureMs);
  send({ type: 'window', phase: 'end', counts: counts() });
  running = false;
  clearInterval(stalls);
  await fleet.stop();
  await Promise.all(subscribers.map((s) => s.endAsync(true)));
  await ota?.close();
  send({ type: 'done', lost: Math.round(lost), verified, ...(firstError ? { firstError } : {}) });
  process.disconnect();
}

main().catch((err: unknown) => {
  process.stderr.write(`pubsub load: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
