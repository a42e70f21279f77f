import { BIDI_CONTROLS } from '@fleet/domain';
import { BIDI_CONTROL_CHARS, isolatedText, revealControls } from './device-text';

describe('device text shown as data', () => {
  it('spells out a right-to-left override instead of letting it reorder the name', () => {
    expect(revealControls('self.sec.\u202egnp.exe')).toEqual([
      { text: 'self.sec.' },
      { control: 'U+202E' },
      { text: 'gnp.exe' },
    ]);
  });

  it('names every bidi control, isolates included, and leaves other text as it is', () => {
    const all = BIDI_CONTROL_CHARS.join('');
    expect(revealControls(`a${all}b`).filter((p) => 'control' in p)).toHaveLength(12);
    expect(revealControls('音量 volume')).toEqual([{ text: '音量 volume' }]);
    expect(revealControls('')).toEqual([{ text: '' }]);
  });

  it('gives a plain form wrapped in an isolate, with each control visible and none left acting', () => {
    const plain = isolatedText('self.sec.\u202egnp.exe');
    expect(plain).toBe('\u2068self.sec.⟨U+202E⟩gnp.exe\u2069');
    expect(plain.slice(1, -1)).not.toMatch(BIDI_CONTROLS);
  });

  it('knows exactly the controls the platform flags in tool names', () => {
    const differing: number[] = [];
    for (let cp = 0; cp <= 0xffff; cp++) {
      const ch = String.fromCharCode(cp);
      if (BIDI_CONTROL_CHARS.includes(ch as never) !== BIDI_CONTROLS.test(ch)) differing.push(cp);
    }
    expect(differing).toEqual([]);
  });
});
