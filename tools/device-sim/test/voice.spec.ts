import { waitFor } from '@fleet/testing';
import { decodeOpus, encodePcm, FAST_TIMINGS, type SimDevice } from '../src';
import { pingRequest, replyWithId, startHarness, type Harness } from './harness';
import { FakeVoiceServer, tone } from './voice-server';

const EXPECTED_HELLO =
  '{"type":"hello","version":3,"transport":"udp","features":{"mcp":true,"glyph_push":true},' +
  '"text_font":{"bundle":"noto-v1","charset":"common","size":20,"bpp":4},' +
  '"audio_params":{"format":"opus","sample_rate":16000,"channels":1,"frame_duration":60}}';

describe('a voice session with a simulated device', () => {
  let h: Harness;
  let device: SimDevice;
  let voice: FakeVoiceServer;

  beforeEach(async () => {
    h = await startHarness();
    voice = await FakeVoiceServer.start();
    // Long enough for the test's hello to arrive through the broker on a loaded machine; the invalid-hello case
    // waits it out once.
    device = h.device({ timings: { ...FAST_TIMINGS, helloTimeoutMs: 2_000 } });
    device.start();
    await h.waitOnline(device);
  });

  afterEach(async () => {
    await h.close();
    await voice.close();
  });

  const texts = () => h.uplinksOf(device).map((u) => u.text);

  async function open(sessionId = 'sess-1'): Promise<void> {
    const opened = device.openVoiceSession({ mode: 'auto' });
    await waitFor(() => texts().includes(EXPECTED_HELLO), { what: 'the device hello' });
    await h.sendToDevice(device, voice.hello(sessionId));
    expect(await opened).toBe(sessionId);
  }

  it('opens with the exact hello, then listen start, and sends audio the server can decrypt and decode', async () => {
    await open();
    await waitFor(() => texts().length === 2);
    expect(texts()).toEqual([
      EXPECTED_HELLO,
      '{"session_id":"sess-1","type":"listen","state":"start","mode":"auto"}',
    ]);
    expect(device.sendAudio(tone(180))).toBe(3);
    await waitFor(() => voice.received.length === 3, { what: 'three uplink packets' });
    expect(voice.received.map((p) => p.header.sequence)).toEqual([1, 2, 3]);
    expect(
      voice.received.every((p) => p.header.ssrc === voice.connectionId && p.header.timestamp === 0),
    ).toBe(true);
    const pcm = decodeOpus(
      voice.received.map((p) => p.opus),
      16_000,
    );
    expect(pcm.length).toBe(3 * 960);
    expect(Math.max(...pcm)).toBeGreaterThan(1000);
  });

  it('plays downlink audio only after tts start, dropping stale sequences', async () => {
    await open();
    device.sendAudio(tone(60)); // the server learns the device's UDP address from its first packet
    await waitFor(() => voice.received.length === 1);
    const frames = encodePcm(tone(120));
    await voice.sendFrame(frames[0]!, 1);
    await waitFor(() => device.observed.downlinkDrops.not_speaking === 1, {
      what: 'a frame before tts start dropped',
    });
    await h.sendToDevice(device, '{"session_id":"sess-1","type":"tts","state":"start"}');
    await waitFor(() => device.state === 'speaking');
    await voice.sendFrame(frames[0]!, 2);
    await voice.sendFrame(frames[1]!, 3);
    await waitFor(() => device.stats.downlinkPlayed === 2);
    await voice.sendFrame(frames[1]!, 3);
    await waitFor(() => device.observed.downlinkDrops.stale_sequence === 1);
    expect(device.stats.downlinkPlayed).toBe(2);
    expect(device.observed.playedFrames.all).toEqual(frames.slice(0, 2));
    expect(device.decodePlayedAudio().length).toBe(2 * 1440); // 60 ms at the hello's 24 kHz
    await h.sendToDevice(device, '{"session_id":"sess-1","type":"tts","state":"stop"}');
    await waitFor(() => texts().length === 3);
    expect(texts()[2]).toBe('{"session_id":"sess-1","type":"listen","state":"start","mode":"auto"}');
    expect(device.state).toBe('listening');
  });

  it('says listen start after tts stop only once the audio it was sent has played (auto mode)', async () => {
    await open();
    device.sendAudio(tone(60)); // the server learns the device's UDP address from its first packet
    await waitFor(() => voice.received.length === 1);
    await h.sendToDevice(device, '{"session_id":"sess-1","type":"tts","state":"start"}');
    await waitFor(() => device.state === 'speaking');
    // Ten 60 ms frames in a burst, faster than they play: the speaker needs 600 ms from the first one.
    const frames = encodePcm(tone(600));
    const before = Date.now();
    for (const [i, frame] of frames.entries()) await voice.sendFrame(frame, i + 1);
    await waitFor(() => device.stats.downlinkPlayed === frames.length);
    await h.sendToDevice(device, '{"session_id":"sess-1","type":"tts","state":"stop"}');
    await waitFor(() => texts().length === 3, { what: 'listen start' });
    expect(Date.now() - before).toBeGreaterThanOrEqual(frames.length * 60);
    expect(texts()[2]).toBe('{"session_id":"sess-1","type":"listen","state":"start","mode":"auto"}');
    expect(device.state).toBe('listening');
  });

  it('ignores a server goodbye with another session id and honours the right one without its own goodbye', async () => {
    await open();
    await h.sendToDevice(device, '{"type":"goodbye","session_id":"sess-2"}');
    await h.sendToDevice(device, `{"session_id":"","type":"mcp","payload":${pingRequest(1)}}`);
    await waitFor(() => replyWithId(h.mcpPayloads(device), 1));
    expect(device.voiceChannelOpen).toBe(true);
    const closed = device.next('session-closed');
    await h.sendToDevice(device, '{"type":"goodbye","session_id":"sess-1"}');
    expect(await closed).toEqual([true]);
    expect(device.voiceChannelOpen).toBe(false);
    expect(texts().some((t) => t.includes('"type":"goodbye"'))).toBe(false);
    // The session id stays in RAM: MCP replies still carry it (xiaozhi §5).
    expect(texts()).toContain(
      `{"session_id":"sess-1","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"error":{"message":"Method not implemented: ping"}}}`,
    );
  });

  it('says goodbye with its session id when it closes the session', async () => {
    await open();
    await device.closeVoiceSession();
    await waitFor(() => texts().includes('{"session_id":"sess-1","type":"goodbye"}'));
    expect(device.state).toBe('idle');
  });

  it('gives up after the hello timeout when the server hello is invalid (a 15-byte key)', async () => {
    const opened = device.openVoiceSession();
    await waitFor(() => texts().includes(EXPECTED_HELLO));
    await h.sendToDevice(
      device,
      voice.hello('sess-x').replace('00112233445566778899aabbccddeeff', '00112233445566778899aabbccddee'),
    );
    await expect(opened).rejects.toThrow('did not open');
    expect(device.state).toBe('idle');
  });

  it('sends listen detect before listen start when a wake word opened the session', async () => {
    const opened = device.openVoiceSession({ wakeWord: '你好小智' });
    await waitFor(() => texts().includes(EXPECTED_HELLO));
    await h.sendToDevice(device, voice.hello('sess-w'));
    await opened;
    await waitFor(() => texts().length === 3);
    expect(texts().slice(1)).toEqual([
      '{"session_id":"sess-w","type":"listen","state":"detect","text":"你好小智"}',
      '{"session_id":"sess-w","type":"listen","state":"start","mode":"auto"}',
    ]);
  });

  it('records stt, llm and alert messages', async () => {
    await h.sendToDevice(device, '{"session_id":"","type":"stt","text":"今天天气怎么样"}');
    await h.sendToDevice(device, '{"session_id":"","type":"llm","text":"😀","emotion":"happy"}');
    await h.sendToDevice(
      device,
      '{"session_id":"","type":"alert","status":"Warning","message":"Battery low","emotion":"sad"}',
    );
    await waitFor(() => device.observed.voiceMessages.all.length === 3);
    expect(device.observed.voiceMessages.all.map((m) => m.type)).toEqual(['stt', 'llm', 'alert']);
  });
});
