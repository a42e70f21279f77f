import { BREAD_COMPACT_WIFI, type SimDevice } from '@fleet/device-sim';
import { spokenPcm, waitFor, withSilence } from '@fleet/testing';
import {
  functionFor,
  startScriptedOpenAi,
  toolResults,
  userText,
  type ScriptedOpenAi,
} from './scripted-openai';
import { startVoicePlatform, type VoicePlatform } from './voice-platform';

const VISION_TOKEN = 'vision-token-0123456789';

describe('voice turns through an OpenAI-compatible server', () => {
  let openai: ScriptedOpenAi;
  let platform: VoicePlatform;

  beforeAll(async () => {
    openai = await startScriptedOpenAi();
    platform = await startVoicePlatform(
      {
        LLM_PROVIDER: 'openai',
        LLM_URL: openai.url,
        LLM_API_KEY: 'test-key',
        ASR_PROVIDER: 'openai',
        ASR_URL: openai.url,
        TTS_PROVIDER: 'openai',
        TTS_URL: openai.url,
        VAD_SILENCE_MS: '400',
        VISION_MODEL_URL: openai.url,
        VISION_TOKEN: VISION_TOKEN,
      },
      { VISION_TOKEN },
    );
  }, 60_000);

  afterAll(async () => {
    await platform?.close();
    await openai?.close();
  });

  afterEach(() => {
    expect(openai.refused).toEqual([]); // every function name the worker sent kept the API's rule
  });

  it('ends a normal turn verified, and says so', async () => {
    const device = await platform.device();
    openai.script = (body) =>
      toolResults(body).length === 0
        ? { toolCalls: [{ name: functionFor(body, 'set_volume'), arguments: { volume: 40 } }] }
        : { text: 'Done!' };
    const turn = await platform.waitTurn(await platform.utter(device, 'set the volume to 40'));
    expect(turn).toMatchObject({ state: 'finished', reply: 'The volume is now 40.', reply_mode: 'text' });
    expect(device.volume).toBe(40);
    const calls = await platform.callsOf(turn.id);
    const asked = calls.find((c) => c.origin === 'llm')!;
    expect(asked).toMatchObject({ tool: 'self.audio_speaker.set_volume', verdict: 'verified' });
    // the decision evidence carries the exact tool call with both names, and the utterance by hash only
    expect(asked.request_context).toMatchObject({
      llmToolCall: {
        function: { name: 'self_audio_speaker_set_volume' },
        tool: 'self.audio_speaker.set_volume',
      },
      utteranceHash: turn.transcript_hash,
    });
    expect(turn.tool_calls).toEqual([
      expect.objectContaining({
        function: 'self_audio_speaker_set_volume',
        tool: 'self.audio_speaker.set_volume',
        callId: asked.id,
        verdict: 'verified',
      }),
    ]);
    // the model saw only AI-visible tools
    const offered = openai.chats.at(-1)!.tools!.map((t) => t.function.name);
    expect(offered).toEqual(
      expect.arrayContaining(['self_get_device_status', 'self_audio_speaker_set_volume']),
    );
    expect(offered).not.toContain('self_reboot');
    expect(offered).not.toContain('self_camera_take_photo');
  });

  it('refuses a hallucinated self.reboot before it reaches the device', async () => {
    const device = await platform.device();
    openai.script = (body) =>
      toolResults(body).length === 0
        ? { toolCalls: [{ name: 'self_reboot', arguments: {} }] }
        : { text: 'I have rebooted the device.' };
    const bootCount = device.bootCount;
    const turn = await platform.waitTurn(await platform.utter(device, 'reboot yourself'));
    expect(turn).toMatchObject({ state: 'finished', reply: 'I am not allowed to do that.' });
    const [call] = await platform.callsOf(turn.id);
    expect(call).toMatchObject({ tool: 'self.reboot', origin: 'llm', verdict: 'rejected' });
    expect(call!.verdict_reason).toMatch(/user-only/);
    expect(device.observed.received.all.some((m) => m.text.includes('self.reboot'))).toBe(false);
    expect(device.bootCount).toBe(bootCount);
    // the refusal went back to the model as the tool result
    expect(toolResults(openai.chats.at(-1)!)).toEqual([
      expect.objectContaining({ verdict: 'rejected', ok: false, error: expect.stringMatching(/user-only/) }),
    ]);
  });

  it('gives an out-of-range volume back as an error, and the corrected call succeeds', async () => {
    const device = await platform.device();
    openai.script = (body) => {
      const results = toolResults(body);
      const setVolume = functionFor(body, 'set_volume');
      if (results.length === 0) return { toolCalls: [{ name: setVolume, arguments: { volume: 150 } }] };
      if (results.length === 1 && /volume/.test(results[0]!.error ?? '')) {
        return { toolCalls: [{ name: setVolume, arguments: { volume: 100 } }] };
      }
      return { text: 'The volume is at its maximum.' };
    };
    const turn = await platform.waitTurn(await platform.utter(device, 'volume to 150'));
    expect(turn).toMatchObject({ state: 'finished', reply: 'The volume is now 100.' });
    const asked = (await platform.callsOf(turn.id)).filter((c) => c.origin === 'llm');
    expect(asked.map((c) => c.verdict)).toEqual(['invalid_arguments', 'verified']);
    expect(asked[0]!.verdict_reason).toMatch(/volume/);
    expect(device.volume).toBe(100);
  });

  it('answers a Chinese command from text in Chinese', async () => {
    const device = await platform.device();
    openai.script = (body) =>
      toolResults(body).length === 0 && userText(body) === '把音量调到三十'
        ? { toolCalls: [{ name: functionFor(body, 'set_volume'), arguments: { volume: 30 } }] }
        : { text: '好的' };
    const turn = await platform.waitTurn(await platform.utter(device, '把音量调到三十'));
    expect(turn).toMatchObject({ state: 'finished', language: 'zh', reply: '音量已调到30。' });
    // The turn's row is finished when its words are handed to the broker; the device hears them a moment later.
    await waitFor(
      () =>
        device.observed.voiceMessages.all.some(
          (m) => m.type === 'tts' && m.state === 'sentence_start' && m.text === '音量已调到30。',
        ),
      { what: 'the Chinese sentence at the device' },
    );
  });

  it('hears a Chinese command through the transcription server and answers it aloud', async () => {
    const device = await platform.device();
    openai.transcript = '把音量调到二十五';
    openai.script = (body) =>
      toolResults(body).length === 0 && userText(body) === '把音量调到二十五'
        ? { toolCalls: [{ name: functionFor(body, 'set_volume'), arguments: { volume: 25 } }] }
        : { text: '好的' };
    await device.openVoiceSession({ mode: 'auto' });
    device.sendAudio(withSilence(spokenPcm('把音量调到二十五', 'cmn'), 1000));
    const turn = await platform.waitTurnOf(device);
    expect(turn).toMatchObject({ state: 'finished', source: 'audio', language: 'zh', reply_mode: 'spoken' });
    expect(turn.reply).toBe('音量已调到25。');
    expect(openai.transcriptions.at(-1)!.contentType).toMatch(/^multipart\/form-data/);
    expect(openai.speech.at(-1)).toEqual({ input: '音量已调到25。', voice: 'alloy' });
    await waitFor(() => device.state === 'listening', { what: 'the device back to listening' });
    expect(device.decodePlayedAudio().length).toBeGreaterThan(0);
    expect(spokenTexts(device)).toEqual([
      'stt:把音量调到二十五',
      'tts:start',
      'tts:音量已调到25。',
      'tts:stop',
    ]);
  });

  it('lets the camera tool post its photo to the vision endpoint and answers from the explanation', async () => {
    const camera = { ...BREAD_COMPACT_WIFI, features: { ...BREAD_COMPACT_WIFI.features, camera: true } };
    const device = await platform.device({ board: camera });
    openai.script = (body) => {
      if (!body.tools) return { text: 'A red mug on the desk.' }; // the vision request: no tools, an image
      const results = toolResults(body);
      if (results.length === 0) {
        return {
          toolCalls: [
            { name: functionFor(body, 'take_photo'), arguments: { question: 'what is on the desk' } },
          ],
        };
      }
      return { text: results[0]!.result ?? 'I could not see.' };
    };
    const turn = await platform.waitTurn(await platform.utter(device, 'what is on my desk'));
    expect(turn).toMatchObject({ state: 'finished', reply: 'A red mug on the desk.' });
    const [call] = await platform.callsOf(turn.id);
    expect(call).toMatchObject({ tool: 'self.camera.take_photo', origin: 'llm' });
    const visionRequest = openai.chats.find((c) => !c.tools)!;
    expect(JSON.stringify(visionRequest.messages)).toContain('data:image/jpeg;base64,');
  });

  it('refuses a photo posted without the vision token', async () => {
    const form = new FormData();
    form.append('question', 'what is this');
    form.append(
      'file',
      new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xd9])], { type: 'image/jpeg' }),
      'camera.jpg',
    );
    const url = `http://127.0.0.1:${platform.worker.ports.http}/vision/explain`;
    expect((await fetch(url, { method: 'POST', body: form })).status).toBe(401);
  });
});

function spokenTexts(device: SimDevice): string[] {
  return device.observed.voiceMessages.all.flatMap((m) => {
    if (m.type === 'stt') return [`stt:${m.text}`];
    if (m.type !== 'tts') return [];
    return [m.state === 'sentence_start' ? `tts:${m.text}` : `tts:${m.state}`];
  });
}
