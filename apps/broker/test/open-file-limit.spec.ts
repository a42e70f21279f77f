import type { MqttClient } from 'mqtt';
import { waitFor, type ServiceProcess } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from './broker-fixture';
import { watchFleet, type FleetWatch } from './fleet-watch';
import { halfSentFlood, HALF_SENT, loopbackAddresses } from './half-sent-flood';
import { readMetrics } from './metric-value';
import { bootCredentials, connectLikeDevice, newDeviceIdentity } from './stock-device';

const OPEN_FILES = 1024;
const FLOOD = 3000;

// The broker as its own process with an open-file limit of 1,024 (its reserve then a quarter of it: 256), flooded
// with three times that many half-sent upgrades from 150 addresses: without the budget its descriptors run out and
// check-ins, CONNECTs and its own Postgres connections fail until the flood goes.
describe('a broker at its open-file limit', () => {
  let f: BrokerFixture;
  let broker: ServiceProcess;
  let httpUrl: string;
  let fleet: FleetWatch;
  const devices: MqttClient[] = [];

  beforeAll(async () => {
    f = await startBrokerFixture();
    fleet = await watchFleet(await f.connectService('orchestrator'));
    broker = await f.startReplicaProcess(
      {
        BROKER_ID: 'limited',
        EDGE_PENDING_PER_ADDRESS: '20',
        EDGE_HEADERS_TIMEOUT_MS: '2000',
        EDGE_CONNECT_TIMEOUT_MS: '2000',
      },
      { openFiles: OPEN_FILES },
    );
    httpUrl = `http://127.0.0.1:${broker.ports['http']}`;
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.endAsync(true)));
    await broker?.stop();
    await f.close();
  });

  const boot = async () => {
    const identity = newDeviceIdentity();
    const device = await connectLikeDevice(await bootCredentials(httpUrl, identity));
    devices.push(device);
    await waitFor(() => fleet.online(identity.mac)[0], { what: `${identity.mac} online` });
    return { mac: identity.mac, device };
  };

  it('keeps descriptors for Postgres, Redis and devices: a connected device publishes, a new one checks in and connects, and the flood is cut', async () => {
    const limits = await readMetrics(httpUrl);
    expect(limits.value('broker_edge_limits', { limit: 'open_files' })).toBe(OPEN_FILES);
    const ceiling = limits.value('broker_edge_limits', { limit: 'open_connections' });
    expect(ceiling).toBe(OPEN_FILES - OPEN_FILES / 4);
    const connected = await boot();

    const flood = halfSentFlood(
      FLOOD,
      [{ port: broker.ports['link']!, bytes: HALF_SENT.upgrade }],
      loopbackAddresses(2, 150),
    );
    await flood.opened;
    const held = await readMetrics(httpUrl);
    expect(held.value('broker_edge_open_connections')).toBeLessThanOrEqual(ceiling);

    const before = fleet.uplinks(connected.mac).length;
    await connected.device.publishAsync('device-server', '{"session_id":"","type":"mcp","payload":{}}');
    await waitFor(() => fleet.uplinks(connected.mac).length > before, { what: 'the connected device heard' });
    await boot(); // a check-in (a Postgres write) and a CONNECT (a Postgres read) through the flood

    await flood.closed;
    const after = await readMetrics(httpUrl);
    expect(after.value('broker_socket_errors_total', { code: 'EMFILE' })).toBe(0);
    expect(broker.logs.filter((line) => line.includes('EMFILE'))).toEqual([]);
    expect(broker.child.exitCode).toBeNull();
  }, 60_000);
});
