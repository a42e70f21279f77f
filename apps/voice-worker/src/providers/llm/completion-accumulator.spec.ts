import { CompletionAccumulator } from './completion-accumulator';

const chunk = (delta: unknown) => ({ choices: [{ index: 0, delta }] });

describe('the streamed completion', () => {
  it('joins tool calls whose name and arguments arrive in pieces', () => {
    const answer = new CompletionAccumulator();
    answer.add(chunk({ role: 'assistant', content: null }));
    expect(answer.started).toBe(false);
    answer.add(
      chunk({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'self_audio', arguments: '' } }] }),
    );
    expect(answer.started).toBe(true);
    answer.add(
      chunk({ tool_calls: [{ index: 0, function: { name: '_speaker_set_volume', arguments: '{"vol' } }] }),
    );
    answer.add(chunk({ tool_calls: [{ index: 0, function: { arguments: 'ume":40}' } }] }));
    answer.add(chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'x', arguments: '{}' } }] }));
    expect(answer.result()).toEqual({
      text: '',
      toolCalls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'self_audio_speaker_set_volume', arguments: '{"volume":40}' },
        },
        { id: 'call_b', type: 'function', function: { name: 'x', arguments: '{}' } },
      ],
    });
  });

  it('reads a whole answer from a server that does not stream', () => {
    const answer = new CompletionAccumulator();
    answer.add({ choices: [{ message: { content: ' The volume is 70. ' } }] });
    expect(answer.result()).toEqual({ text: 'The volume is 70.', toolCalls: [] });
  });
});
