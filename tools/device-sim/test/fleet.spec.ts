import { waitFor } from '@fleet/testing';
import { createFleet, FAST_TIMINGS, type Fleet } from '../src';
import { startHarness, type Harness } from './harness';

describe('a small simulated fleet', () => {
  let h: Harness;
  let fleet: Fleet;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await fleet.stop();
    await h.close();
  });

  it('boots 50 devices at a spread rate and connects them all through the lean client', async () => {
    fleet = createFleet({
      count: 50,
      otaUrl: h.ota.url,
      bootsPerSecond: 500,
      timings: FAST_TIMINGS,
      recordLimit: 10,
    });
    const started = Date.now();
    await fleet.start();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90); // 49 gaps of 2 ms
    const summary = await fleet.waitFor((s) => s.connected === 50, 20_000);
    expect(summary).toMatchObject({ devices: 50, booted: 50, checkIns: 50, connects: 50 });
    expect(new Set(h.ota.checkIns.map((c) => c.headers['device-id'])).size).toBe(50);
    const devices = () => [...h.subscribes.keys()].filter((id) => id.includes('@@@'));
    await waitFor(() => devices().length === 50, { what: 'every device subscribed by the broker' });
    expect(new Set(fleet.devices.map((d) => d.clientId)).size).toBe(50);
  });

  it('changes a fleet-wide fault knob at run time, a device setting still winning', () => {
    fleet.devices[0]!.setFaults({ lie: false });
    fleet.setFaults({ lie: true });
    expect(fleet.devices[1]!.faults.current.lie).toBe(true);
    expect(fleet.devices[0]!.faults.current.lie).toBe(false);
    fleet.setFaults({ lie: false });
    expect(fleet.devices[1]!.faults.current.lie).toBe(false);
  });

  it('keeps each device state in NVS that can be exported and read back', () => {
    const saved = fleet.exportNvs();
    expect(Object.keys(saved)).toHaveLength(50);
    const first = saved[fleet.devices[0]!.mac]!;
    expect(first).toMatchObject({ volume: 70, brightness: 75, theme: 'light', flash: { running: 'ota_0' } });
    expect(first.mqtt['client_id']).toBe(fleet.devices[0]!.clientId);
  });
});
