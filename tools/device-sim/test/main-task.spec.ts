import { waitFor } from '@fleet/testing';
import { FAST_TIMINGS, type SimDevice } from '../src';
import { replyWithId, resultText, startHarness, toolCall, type Harness } from './harness';

interface Status {
  screen: { brightness: number };
}

describe('the main task of a simulated device', () => {
  let h: Harness;
  let device: SimDevice;

  beforeEach(async () => {
    h = await startHarness();
    device = h.device({ timings: { ...FAST_TIMINGS, brightnessStepMs: 5 } });
    device.start();
    await h.waitOnline(device);
  });

  afterEach(() => h.close());

  let nextId = 100;
  const call = async (name: string, args?: Record<string, unknown>) => {
    const id = nextId++;
    await h.sendMcp(device, toolCall(id, name, args));
    return resultText(await waitFor(() => replyWithId(h.mcpPayloads(device), id)));
  };

  it('shows the brightness ramp: a status read right after set_brightness sees a level in between', async () => {
    await waitFor(() => device.brightness === 75, { what: 'the boot ramp to the saved level' });
    expect(await call('self.screen.set_brightness', { brightness: 20 })).toBe('true');
    const seen: number[] = [];
    for (let level = 75; level !== 20;) {
      level = (JSON.parse(await call('self.get_device_status')) as Status).screen.brightness;
      seen.push(level);
    }
    expect(seen.some((level) => level > 20 && level < 75)).toBe(true);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    expect(device.savedBrightness).toBe(20);
  });

  it('runs callbacks, their scheduled work and their replies in one order', async () => {
    const url = h.ota.serveFirmware('broken.bin', Buffer.alloc(10), { status: 500 });
    await h.sendMcp(device, toolCall(1, 'self.audio_speaker.set_volume', { volume: 20 }));
    await h.sendMcp(device, toolCall(2, 'self.upgrade_firmware', { url }));
    await h.sendMcp(device, toolCall(3, 'self.audio_speaker.set_volume', { volume: 30 }));
    await h.sendMcp(device, toolCall(4, 'self.get_device_status'));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 4));
    expect(h.mcpPayloads(device).map((p) => /"id":(\d+)/.exec(p)?.[1])).toEqual(['1', '2', '3', '4']);
    // Whatever the interleaving of arrivals and callbacks, the replies keep the order of one queue.
    expect(resultText(replyWithId(h.mcpPayloads(device), 4)!)).toContain('"volume":30');
  });
});
