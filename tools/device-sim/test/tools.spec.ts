import { waitFor } from '@fleet/testing';
import { BREAD_COMPACT_WIFI, type SimDevice } from '../src';
import { replyWithId, resultText, startHarness, toolCall, type Harness } from './harness';
import { startHttpSink, type HttpSink } from './http-sink';

describe('the built-in tools of a simulated device', () => {
  let h: Harness;
  let sink: HttpSink;
  let device: SimDevice;

  beforeEach(async () => {
    h = await startHarness();
    sink = await startHttpSink();
  });

  afterEach(async () => {
    await h.close();
    await sink.close();
  });

  let nextId = 1;
  const call = async (name: string, args?: Record<string, unknown>) => {
    const id = nextId++;
    await h.sendMcp(device, toolCall(id, name, args));
    return waitFor(() => replyWithId(h.mcpPayloads(device), id), { what: `the reply to ${name}` });
  };

  const boot = async (options: Parameters<Harness['device']>[0] = {}) => {
    device = h.device(options);
    device.start();
    await h.waitOnline(device);
  };

  it('answers self.get_system_info with the very text of its OTA check-in body', async () => {
    await boot();
    expect(resultText(await call('self.get_system_info'))).toBe(h.ota.checkIns[0]!.body);
  });

  it('uploads a snapshot as multipart and reports a non-200 as the firmware error', async () => {
    await boot();
    expect(resultText(await call('self.screen.snapshot', { url: sink.url }))).toBe('true');
    expect(sink.requests[0]?.headers['content-type']).toBe(
      'multipart/form-data; boundary=----ESP32_SCREEN_SNAPSHOT_BOUNDARY',
    );
    expect(sink.requests[0]?.body.toString('latin1')).toContain('filename="screenshot.jpg"');
    sink.answer = { status: 500, body: 'no' };
    expect(await call('self.screen.snapshot', { url: sink.url, quality: 50 })).toMatch(
      /"error":\{"message":"Unexpected status code: 500"\}/,
    );
  });

  it('keeps relay states across a reboot', async () => {
    await boot();
    await call('self.board.relay_07.set', { on: true });
    device.reboot();
    await h.waitOnline(device, 2);
    expect(device.relays).toEqual({ 'self.board.relay_07.set': true });
  });

  it('takes a photo for the explain URL that initialize gave, on a board with a camera', async () => {
    await boot({
      board: { ...BREAD_COMPACT_WIFI, features: { ...BREAD_COMPACT_WIFI.features, camera: true } },
    });
    expect(await call('self.camera.take_photo', { question: 'what is this?' })).toMatch(
      /"message":"Image explain URL or token is not set"/,
    );
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 500,
      method: 'initialize',
      params: { capabilities: { vision: { url: sink.url, token: 'tok' } } },
    });
    await h.sendMcp(device, init);
    await waitFor(() => replyWithId(h.mcpPayloads(device), 500));
    sink.answer = { status: 200, body: '{"success":true,"result":"a cat"}' };
    expect(resultText(await call('self.camera.take_photo', { question: 'what is this?' }))).toBe(
      '{"success":true,"result":"a cat"}',
    );
    const upload = sink.requests[0]!;
    expect(upload.headers).toMatchObject({
      'device-id': device.mac,
      'client-id': device.uuid,
      authorization: 'Bearer tok',
    });
    expect(upload.body.toString('utf8')).toContain('what is this?');
  });
});
