import { waitFor } from '@fleet/testing';
import { FAST_TIMINGS, type SimDevice } from '../src';
import { pingReply, pingRequest, replyWithId, startHarness, toolCall, type Harness } from './harness';

describe('a simulated device told to reboot', () => {
  let h: Harness;
  let device: SimDevice;

  beforeEach(async () => {
    h = await startHarness();
    device = h.device({ timings: { ...FAST_TIMINGS, rebootToolDelayMs: 200 } });
    device.start();
    await h.waitOnline(device);
  });

  afterEach(() => h.close());

  it('never answers self.reboot, sends DISCONNECT, checks in again and reconnects with the same client id', async () => {
    await h.sendMcp(device, toolCall(1, 'self.audio_speaker.set_volume', { volume: 33 }));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 1));
    const clientId = device.clientId;
    await h.sendMcp(device, toolCall(2, 'self.reboot'));
    await h.waitOnline(device, 2);
    expect(h.disconnects).toEqual([{ clientId, graceful: true }]);
    expect(h.ota.checkIns).toHaveLength(2);
    expect(device.clientId).toBe(clientId);
    expect(device.bootCount).toBe(2);
    await h.sendMcp(device, pingRequest(3));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 3));
    expect(replyWithId(h.mcpPayloads(device), 2)).toBeUndefined();
    expect(device.volume).toBe(33);
  });

  it('answers nothing sent while the reboot wait blocks the main task', async () => {
    await h.sendMcp(device, toolCall(10, 'self.reboot'));
    await h.sendMcp(device, toolCall(11, 'self.get_device_status'));
    await waitFor(() => device.observed.received.all.some((m) => m.text.includes('"id":11')));
    expect(device.connected).toBe(true); // still inside the 200 ms wait
    await h.waitOnline(device, 2);
    await h.sendMcp(device, pingRequest(12));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 12));
    expect(h.mcpPayloads(device)).toEqual([pingReply(12)]);
  });

  it('says goodbye first when a voice session is open', async () => {
    const opened = device.openVoiceSession();
    await waitFor(() => h.uplinksOf(device).some((u) => u.text.startsWith('{"type":"hello"')));
    await h.sendToDevice(
      device,
      JSON.stringify({
        type: 'hello',
        transport: 'udp',
        session_id: 'S1',
        udp: {
          server: '127.0.0.1',
          port: 9,
          key: '00112233445566778899aabbccddeeff',
          nonce: '01000000abcdef010000000000000000',
        },
      }),
    );
    await opened;
    await h.sendToDevice(device, '{"session_id":"S1","type":"system","command":"reboot"}');
    await h.waitOnline(device, 2);
    const texts = h.uplinksOf(device).map((u) => u.text);
    expect(texts.slice(-1)).toEqual(['{"session_id":"S1","type":"goodbye"}']);
    expect(h.disconnects.map((d) => d.graceful)).toEqual([true]);
    expect(h.ota.checkIns).toHaveLength(2);
  });

  it('restores its saved brightness and theme after a reboot', async () => {
    await h.sendMcp(device, toolCall(20, 'self.screen.set_theme', { theme: 'dark' }));
    await h.sendMcp(device, toolCall(21, 'self.screen.set_brightness', { brightness: 40 }));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 21));
    device.reboot();
    await h.waitOnline(device, 2);
    await waitFor(() => device.brightness === 40, { what: 'the backlight ramp after boot' });
    expect(device.theme).toBe('dark');
  });
});
