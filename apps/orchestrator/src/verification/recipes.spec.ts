import { readStatusValue, recipeFor } from './recipes';

describe('effect recipes', () => {
  it('read set_volume back through the status', () => {
    expect(recipeFor('self.audio_speaker.set_volume')).toMatchObject({
      kind: 'readback',
      path: ['audio_speaker', 'volume'],
    });
    const status = '{"audio_speaker":{"volume":40},"screen":{"brightness":75,"theme":"light"}}';
    expect(readStatusValue(status, ['audio_speaker', 'volume'])).toBe(40);
    expect(readStatusValue('not json', ['audio_speaker', 'volume'])).toBeUndefined();
  });

  it('treat reboots both ways alike, declared read tools as their own effect, and the rest as unverifiable', () => {
    expect(recipeFor('self.reboot')).toMatchObject({ kind: 'reboot' });
    expect(recipeFor('system.reboot')).toEqual({ kind: 'reboot' });
    expect(recipeFor('self.battery.get_level', { readOnlyHint: true })).toEqual({ kind: 'read_only' });
    expect(recipeFor('self.battery.get_level', { markedReadOnly: true })).toEqual({ kind: 'read_only' });
    expect(recipeFor('self.board.relay_03.set')).toEqual({ kind: 'unverifiable' });
  });

  it('do not guess a read tool from a name that looks like a getter', () => {
    expect(recipeFor('self.battery.get_level')).toEqual({ kind: 'unverifiable' });
  });
});
