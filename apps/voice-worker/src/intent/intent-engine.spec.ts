import { toolResultContent, readToolResult } from '../providers/llm/tool-result';
import { nextStep, type EngineTool } from './intent-engine';

const range = { type: 'object', properties: { volume: { type: 'integer', minimum: 0, maximum: 100 } } };
const TOOLS: EngineTool[] = [
  { tool: 'self.get_device_status', parameters: { type: 'object', properties: {} } },
  { tool: 'self.audio_speaker.set_volume', parameters: range },
  {
    tool: 'self.screen.set_brightness',
    parameters: { type: 'object', properties: { brightness: { type: 'integer', minimum: 0, maximum: 100 } } },
  },
  {
    tool: 'self.screen.set_theme',
    parameters: { type: 'object', properties: { theme: { type: 'string' } } },
  },
];
const status = (volume: number) =>
  readToolResult(
    toolResultContent({
      verdict: 'verified',
      ok: true,
      result: JSON.stringify({ audio_speaker: { volume }, screen: { brightness: 50, theme: 'light' } }),
    }),
  );

describe('the intent engine', () => {
  it('sets an absolute volume in one call', () => {
    expect(nextStep('set the volume to forty', 'en', TOOLS, [])).toEqual({
      kind: 'call',
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 40 },
    });
  });

  it('reads the status before a relative change, then changes from what it read', () => {
    expect(nextStep('a bit quieter', 'en', TOOLS, [])).toEqual({
      kind: 'call',
      tool: 'self.get_device_status',
      arguments: {},
    });
    const read = [{ tool: 'self.get_device_status', arguments: {}, result: status(70) }];
    expect(nextStep('a bit quieter', 'en', TOOLS, read)).toEqual({
      kind: 'call',
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 60 },
    });
    expect(nextStep('声音大一点', 'zh', TOOLS, [{ ...read[0]!, result: status(95) }])).toMatchObject({
      arguments: { volume: 100 },
    });
  });

  it('answers a question from the status it read, in the user language', () => {
    const read = [{ tool: 'self.get_device_status', arguments: {}, result: status(70) }];
    expect(nextStep('what is the volume', 'en', TOOLS, read)).toEqual({
      kind: 'say',
      text: 'The volume is 70.',
    });
    expect(nextStep('现在音量是多少', 'zh', TOOLS, read)).toEqual({ kind: 'say', text: '现在音量是70。' });
  });

  it('retries a refused out-of-range value once, within the declared range', () => {
    const refused = [
      {
        tool: 'self.audio_speaker.set_volume',
        arguments: { volume: 150 },
        result: { verdict: 'invalid_arguments', ok: false, error: 'argument "volume" must be at most 100' },
      },
    ];
    expect(nextStep('set the volume to one hundred fifty', 'en', TOOLS, refused)).toEqual({
      kind: 'call',
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 100 },
    });
  });

  it('says the device cannot do what no visible tool does', () => {
    expect(nextStep('take a photo', 'en', TOOLS, [])).toEqual({
      kind: 'say',
      text: 'This device cannot do that.',
    });
  });
});
