import { waitFor } from '@fleet/testing';
import { type SimDevice } from '../src';
import {
  pingReply,
  pingRequest,
  replyWithId,
  resultText,
  startHarness,
  toolCall,
  type Harness,
} from './harness';

describe('fault knobs on a simulated device', () => {
  let h: Harness;
  let device: SimDevice;

  beforeEach(async () => {
    h = await startHarness();
    device = h.device();
    device.start();
    await h.waitOnline(device);
  });

  afterEach(() => h.close());

  const call = async (id: number, name: string, args?: Record<string, unknown>) => {
    await h.sendMcp(device, toolCall(id, name, args));
    return waitFor(() => replyWithId(h.mcpPayloads(device), id), { what: `the reply to ${id}` });
  };

  it('a lying device answers "true" to set_volume and leaves the volume as it was', async () => {
    device.setFaults({ lie: true });
    expect(resultText(await call(1, 'self.audio_speaker.set_volume', { volume: 10 }))).toBe('true');
    const status = JSON.parse(resultText(await call(2, 'self.get_device_status'))) as {
      audio_speaker: { volume: number };
    };
    expect(status.audio_speaker.volume).toBe(70);
    expect(device.volume).toBe(70);
  });

  it('a lying device answers self.reboot with "true" and does not reboot', async () => {
    device.setFaults({ lie: true });
    expect(resultText(await call(1, 'self.reboot'))).toBe('true');
    expect(device.bootCount).toBe(1);
  });

  it('drops a reply: the next request is answered, that one never', async () => {
    device.setFaults({ dropReplies: 1 });
    await h.sendMcp(device, toolCall(1, 'self.get_device_status'));
    await waitFor(() => device.stats.repliesDropped === 1);
    device.clearFaults();
    await call(2, 'self.get_device_status');
    expect(replyWithId(h.mcpPayloads(device), 1)).toBeUndefined();
  });

  it('delays replies, and everything queued behind them waits too', async () => {
    device.setFaults({ replyDelayMs: 150 });
    const sent = Date.now();
    await h.sendMcp(device, pingRequest(1));
    await h.sendMcp(device, pingRequest(2));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 2));
    expect(Date.now() - sent).toBeGreaterThanOrEqual(300);
    expect(h.mcpPayloads(device)).toEqual([pingReply(1), pingReply(2)]);
  });

  it('sends broken JSON instead of a reply, the id still readable at its start', async () => {
    device.setFaults({ brokenJson: 1 });
    await h.sendMcp(device, toolCall(1, 'self.get_device_status'));
    await waitFor(() => h.uplinksOf(device).length === 1);
    const text = h.uplinksOf(device)[0]!.text;
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(text.startsWith('{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":1,')).toBe(true);
  });

  it('flaps the connection without a boot or an OTA check-in, and without DISCONNECT', async () => {
    const clientId = device.clientId;
    device.flap();
    await h.waitOnline(device, 2);
    expect(h.disconnects).toEqual([{ clientId, graceful: false }]);
    expect(device.stats).toMatchObject({ bootCount: 1, otaCheckIns: 1, mqttConnectCount: 2, flaps: 1 });
    expect(h.ota.checkIns).toHaveLength(1);
    await call(1, 'self.get_device_status');
  });

  it('flaps again and again with flapEveryMs, never checking in', async () => {
    device.setFaults({ flapEveryMs: 60 });
    await waitFor(() => device.stats.flaps >= 2, { what: 'two flaps' });
    device.setFaults({ flapEveryMs: 0 });
    await h.waitOnline(device, device.stats.flaps + 1);
    expect(h.ota.checkIns).toHaveLength(1);
    expect(h.disconnects.every((d) => !d.graceful)).toBe(true);
  });

  it('publishes arbitrary bytes, and survives writing garbage on its socket by reconnecting', async () => {
    expect(device.publishRaw(Uint8Array.from([0xff, 0x00, 0x7b]))).toBe(true);
    await waitFor(() => h.uplinksOf(device).length === 1);
    expect(Buffer.from(h.uplinksOf(device)[0]!.text, 'utf8')).toBeDefined();
    expect(device.writeRawBytes(Uint8Array.from([0xf0, 0x00]))).toBe(true);
    await h.waitOnline(device, 2);
    expect(h.ota.checkIns).toHaveLength(1);
  });
});
