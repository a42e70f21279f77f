import type { SimDevice } from '@fleet/device-sim';
import { spokenPcm, waitFor, withSilence } from '@fleet/testing';
import { startVoicePlatform, type VoicePlatform } from './voice-platform';

// The offline providers, all defaults: pocketsphinx with the command grammar, the intent engine, espeak-ng.
describe('voice turns with the offline providers', () => {
  let platform: VoicePlatform;

  beforeAll(async () => {
    platform = await startVoicePlatform();
  }, 60_000);

  afterAll(async () => {
    await platform?.close();
  });

  it('hears "set the volume to forty" over encrypted UDP, sets it verified, and answers aloud', async () => {
    const device = await platform.device({ initial: { volume: 70 } });
    await device.openVoiceSession({ mode: 'auto' });
    device.sendAudio(withSilence(spokenPcm('set the volume to forty'), 1200));
    const turn = await platform.waitTurnOf(device, 30_000);
    expect(turn).toMatchObject({
      state: 'finished',
      source: 'audio',
      language: 'en',
      reply: 'The volume is now 40.',
      reply_mode: 'spoken',
    });
    expect(device.volume).toBe(40);
    const calls = await platform.callsOf(turn.id);
    expect(calls.find((c) => c.origin === 'llm')).toMatchObject({
      tool: 'self.audio_speaker.set_volume',
      verdict: 'verified',
    });
    await waitFor(() => device.state === 'listening', { what: 'the device back to listening' });
    expect(voiceLog(device)).toEqual([
      'stt:set the volume to forty',
      'llm:happy',
      'tts:start',
      'tts:The volume is now 40.',
      'tts:stop',
    ]);
    const played = device.decodePlayedAudio();
    expect(played.length / 24_000).toBeGreaterThan(0.5); // seconds of speech the device played
    expect(turn.timings).toMatchObject({
      origin: 'speech_end',
      speechEndMs: expect.any(Number),
      asrFinalMs: expect.any(Number),
      llmFirstTokenMs: expect.any(Number),
      toolRoundTrips: [
        expect.objectContaining({ tool: 'self.audio_speaker.set_volume', verdict: 'verified' }),
      ],
      firstTtsAudioMs: expect.any(Number),
    });
    if (process.env['VOICE_TIMINGS']) console.log(JSON.stringify(turn.timings));
  });

  it('answers the same request as text on the screen when no session is open', async () => {
    const device = await platform.device({ initial: { volume: 70 } });
    const turn = await platform.waitTurn(await platform.utter(device, 'set the volume to forty'));
    expect(turn).toMatchObject({ state: 'finished', reply: 'The volume is now 40.', reply_mode: 'text' });
    expect(device.volume).toBe(40);
    await waitFor(() => voiceLog(device).length > 0, { what: 'the reply on the device' });
    // a lone sentence_start: shown on the screen without changing the device's state
    expect(voiceLog(device)).toEqual(['tts:The volume is now 40.']);
    expect(device.state).toBe('idle');
    if (process.env['VOICE_TIMINGS']) console.log(JSON.stringify(turn.timings));
  });

  it('speaks the answer to a request from text while the device has a session open', async () => {
    const device = await platform.device({ initial: { volume: 30 } });
    await device.openVoiceSession({ mode: 'auto' });
    // a listening device streams its microphone; the broker learns its UDP address from those packets
    device.sendAudio(new Int16Array(16_000 / 2));
    const turn = await platform.waitTurn(await platform.utter(device, 'turn the volume up'));
    expect(turn).toMatchObject({ state: 'finished', reply: 'The volume is now 40.', reply_mode: 'spoken' });
    await waitFor(() => voiceLog(device).includes('tts:stop'), { what: 'the end of the spoken reply' });
    expect(device.decodePlayedAudio().length).toBeGreaterThan(0);
  });

  it('reads the status first for a relative Chinese command, then answers in Chinese', async () => {
    const device = await platform.device({ initial: { volume: 70 } });
    const turn = await platform.waitTurn(await platform.utter(device, '声音小一点'));
    expect(turn).toMatchObject({ state: 'finished', language: 'zh', reply: '音量已调到60。' });
    expect(device.volume).toBe(60);
    const asked = (await platform.callsOf(turn.id)).filter((c) => c.origin === 'llm');
    expect(asked.map((c) => [c.tool, c.verdict])).toEqual([
      ['self.get_device_status', 'verified'],
      ['self.audio_speaker.set_volume', 'verified'],
    ]);
  });

  it('answers a question from what it read', async () => {
    const device = await platform.device({ initial: { volume: 55 } });
    const turn = await platform.waitTurn(await platform.utter(device, 'what is the volume'));
    expect(turn).toMatchObject({ state: 'finished', reply: 'The volume is 55.' });
  });
});

function voiceLog(device: SimDevice): string[] {
  return device.observed.voiceMessages.all.flatMap((m) => {
    if (m.type === 'stt') return [`stt:${m.text}`];
    if (m.type === 'llm') return [`llm:${m.emotion}`];
    if (m.type !== 'tts') return [];
    return [m.state === 'sentence_start' ? `tts:${m.text}` : `tts:${m.state}`];
  });
}
