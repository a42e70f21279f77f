import { startTcpProxy, waitFor, type TcpProxy } from '@fleet/testing';
import { startPlatform, type Platform } from '../../test/platform-fixture';
import type { OrchestratorHandle } from '../orchestrator-app';

// DESIGN §3: a reply pairs only on the connection its request went out on, so this replica must know which
// connection a device is on even when it missed the presence events (QoS 0) while its own MQTT link was down.
describe('presence after the orchestrator lost its link to the broker', () => {
  let p: Platform;
  let proxy: TcpProxy;
  let orchestrator: OrchestratorHandle;

  beforeAll(async () => {
    p = await startPlatform({}, { inProcessOrchestrator: false });
    proxy = await startTcpProxy(p.broker.ports['mqtt']!);
    orchestrator = await p.startOrchestrator('resync-1', { MQTT_URL: `mqtt://127.0.0.1:${proxy.port}` });
  });
  afterAll(async () => {
    await p.close();
    await proxy.close();
  });

  it('follows a device that moved to a new connection while the link was down, and its next call pairs', async () => {
    const device = await p.device();
    const held = () => orchestrator.devices.get(device.mac)?.connectionId;
    const before = held();
    expect(before).toEqual(expect.any(String));

    await proxy.cut();
    device.flap(); // the device reconnects: the broker's offline and online events go nowhere
    const moved = await waitFor(
      async () => {
        const { rows } = await p.sql.query('SELECT online, connection_id FROM device WHERE id = $1', [
          device.mac,
        ]);
        return rows[0].online && rows[0].connection_id !== before && (rows[0].connection_id as string);
      },
      { what: 'the device on a new connection in its row' },
    );
    expect(held()).toBe(before); // nothing told this replica yet
    await proxy.restore();
    await waitFor(() => held() === moved, { what: 'the orchestrator on the new connection' });

    const callId = await p.call({
      device,
      tool: 'self.get_device_status',
      arguments: {},
      origin: 'operator',
      operatorId: await p.operator(),
    });
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('verified');
  });
});
