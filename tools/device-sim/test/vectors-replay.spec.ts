import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@fleet/testing';
import { FAST_TIMINGS, type SimDevice } from '../src';
import { pingReply, pingRequest, startHarness, type Harness } from './harness';

interface McpVector {
  case: string;
  request: string;
  replies: string[];
}

const VECTORS: McpVector[] = readFileSync(
  join(__dirname, '../../../libs/protocol/test/vectors/mcp-server-2.4.2.jsonl'),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as McpVector);

const PROBE_ID = 990_000;

describe('a simulated device set up like the vectors stub board', () => {
  let h: Harness;
  let device: SimDevice;

  beforeAll(async () => {
    h = await startHarness();
    // The stub board (vectors/README.md): bread-compact-wifi 2.4.2, volume 70, brightness 75, light/dark themes,
    // no camera, 40 relays. Its brightness jumps; the reboot's 1 s wait is long enough that the request after
    // it arrives while the main task is blocked, as in the recording.
    device = h.device({
      timings: { ...FAST_TIMINGS, brightnessStepMs: 0, rebootToolDelayMs: 300 },
      relayTools: 40,
    });
    device.start();
    await h.waitOnline(device);
  });

  afterAll(() => h.close());

  it('replays all 61 recorded exchanges over the broker with byte-identical replies', async () => {
    expect(VECTORS).toHaveLength(61);
    const reboot = VECTORS.findIndex((v) => v.case === 'reboot');
    for (const [i, vector] of VECTORS.slice(0, reboot).entries()) {
      const before = h.mcpPayloads(device).length;
      await h.sendMcp(device, vector.request);
      // An empty list means nothing came back: the probe's reply arriving first (the main task is one ordered
      // queue) proves it.
      const expected = vector.replies.length > 0 ? vector.replies : [pingReply(PROBE_ID + i)];
      if (vector.replies.length === 0) await h.sendMcp(device, pingRequest(PROBE_ID + i));
      await waitFor(() => h.mcpPayloads(device).length >= before + expected.length, { what: vector.case });
      expect({ case: vector.case, replies: h.mcpPayloads(device).slice(before) }).toEqual({
        case: vector.case,
        replies: expected,
      });
    }
  });

  it('answers nothing after self.reboot, not even the request behind it, until it has rebooted', async () => {
    const tail = VECTORS.slice(VECTORS.findIndex((v) => v.case === 'reboot'));
    expect(tail.map((v) => v.replies)).toEqual([[], []]);
    const before = h.mcpPayloads(device).length;
    const restarting = device.next('restarting');
    for (const vector of tail) await h.sendMcp(device, vector.request);
    expect(await restarting).toEqual(['reboot']);
    // The request behind the reboot did reach the device, while its main task was blocked.
    expect(device.observed.received.all.some((m) => m.text.includes('"id":52'))).toBe(true);
    await h.waitOnline(device, 2);
    await h.sendMcp(device, pingRequest(PROBE_ID));
    await waitFor(() => h.mcpPayloads(device).length > before, { what: 'the probe reply' });
    expect(h.mcpPayloads(device).slice(before)).toEqual([pingReply(PROBE_ID)]);
    expect(device.volume).toBe(30);
  });
});
