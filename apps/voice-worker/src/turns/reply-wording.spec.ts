import { replyFor } from './reply-wording';
import type { ToolCallRecord } from './tool-call-record';

const call = (over: Partial<ToolCallRecord>): ToolCallRecord => ({
  round: 1,
  id: 'call_1',
  function: 'self_audio_speaker_set_volume',
  tool: 'self.audio_speaker.set_volume',
  arguments: { volume: 40 },
  verdict: 'verified',
  ms: 10,
  ...over,
});

describe('the reply wording', () => {
  it('says the volume is now 40 only when the call was verified', () => {
    expect(replyFor('en', [call({})], 'Sure!')).toEqual({ text: 'The volume is now 40.', emotion: 'happy' });
    expect(replyFor('zh', [call({})], '好的')).toEqual({ text: '音量已调到40。', emotion: 'happy' });
  });

  it('says it could not confirm an acknowledged call', () => {
    const reply = replyFor(
      'en',
      [call({ tool: 'self.lamp.turn_on', verdict: 'acknowledged' })],
      'The lamp is on!',
    );
    expect(reply.text).toBe('I asked the device, but could not confirm it.');
  });

  it.each([
    ['rejected', 'user-only tool: the voice assistant may not call it', 'I am not allowed to do that.'],
    ['rejected', 'the device has no tool named self.fly', 'The device cannot do that.'],
    [
      'invalid_arguments',
      'argument "volume" must be at most 100',
      'The device cannot accept that: argument "volume" must be at most 100.',
    ],
    ['device_error', 'Unknown theme', 'The device reported an error: Unknown theme.'],
    [
      'no_response',
      'no reply within 5000 ms',
      'The device did not answer, so I do not know whether it worked.',
    ],
    ['undelivered', 'offline', 'I could not reach the device; nothing was changed.'],
    ['effect_mismatch', 'readback 70', 'The device said it was done, but what I read back says otherwise.'],
  ] as const)('says a %s call plainly', (verdict, reason, text) => {
    const reply = replyFor('en', [call({ verdict, reason })], 'Done, the volume is 40!');
    expect(reply).toEqual({ text, emotion: 'sad' });
  });

  it('reports the corrected call, not the refused one before it', () => {
    const calls = [
      call({ arguments: { volume: 150 }, verdict: 'invalid_arguments', reason: 'too high' }),
      call({ id: 'call_2', round: 2, arguments: { volume: 100 } }),
    ];
    expect(replyFor('en', calls, '').text).toBe('The volume is now 100.');
  });

  it('answers a question in the model words when its read succeeded', () => {
    const read = call({ tool: 'self.get_device_status', function: 'self_get_device_status', arguments: {} });
    expect(replyFor('en', [read], 'The volume is 70.').text).toBe('The volume is 70.');
  });

  it('does not answer from a read that failed', () => {
    const read = call({ tool: 'self.get_device_status', arguments: {}, verdict: 'no_response' });
    expect(replyFor('zh', [read], '音量是70').text).toBe('设备没有回应，我不确定是否成功。');
  });

  it('speaks the model words when no tool was needed', () => {
    expect(replyFor('en', [], 'Hello there.')).toEqual({ text: 'Hello there.', emotion: 'neutral' });
  });
});
