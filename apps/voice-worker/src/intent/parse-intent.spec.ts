import { ENGLISH_COMMAND_PHRASES } from './command-phrases';
import { englishNumberWords } from './numbers';
import { parseIntent } from './parse-intent';

describe('the intent parser', () => {
  it.each([
    ['set the volume to forty', { kind: 'set', property: 'volume', value: 40 }],
    ['Set the volume to 40.', { kind: 'set', property: 'volume', value: 40 }],
    ['set the brightness to seventy five', { kind: 'set', property: 'brightness', value: 75 }],
    ['volume one hundred', { kind: 'set', property: 'volume', value: 100 }],
    ['make it a bit quieter', { kind: 'adjust', property: 'volume', direction: -1, step: 10 }],
    ['turn the volume up by twenty', { kind: 'adjust', property: 'volume', direction: 1, step: 20 }],
    ['much louder', { kind: 'adjust', property: 'volume', direction: 1, step: 30 }],
    ['make the screen darker', { kind: 'adjust', property: 'brightness', direction: -1, step: 10 }],
    ['what is the volume', { kind: 'query', property: 'volume' }],
    ['what is the battery level', { kind: 'query', property: 'battery' }],
    ['switch to the dark theme', { kind: 'theme', theme: 'dark' }],
    ['use light mode', { kind: 'theme', theme: 'light' }],
    ['tell me a joke', { kind: 'unknown' }],
  ])('reads the English command "%s"', (text, intent) => {
    expect(parseIntent(text, 'en')).toEqual(intent);
  });

  it.each([
    ['把音量调到四十', { kind: 'set', property: 'volume', value: 40 }],
    ['音量调到30', { kind: 'set', property: 'volume', value: 30 }],
    ['亮度设为七十五', { kind: 'set', property: 'brightness', value: 75 }],
    ['把音量调到一百', { kind: 'set', property: 'volume', value: 100 }],
    ['声音小一点', { kind: 'adjust', property: 'volume', direction: -1, step: 10 }],
    ['音量调大一些', { kind: 'adjust', property: 'volume', direction: 1, step: 10 }],
    ['音量调高二十', { kind: 'adjust', property: 'volume', direction: 1, step: 20 }],
    ['屏幕暗一点', { kind: 'adjust', property: 'brightness', direction: -1, step: 10 }],
    ['现在音量是多少', { kind: 'query', property: 'volume' }],
    ['切换到深色主题', { kind: 'theme', theme: 'dark' }],
    ['讲个笑话', { kind: 'unknown' }],
  ])('reads the Chinese command "%s"', (text, intent) => {
    expect(parseIntent(text, 'zh')).toEqual(intent);
  });

  it('understands every phrase of the speech grammar, with any number in it', () => {
    for (const phrase of ENGLISH_COMMAND_PHRASES) {
      for (const n of [0, 7, 15, 40, 42, 100]) {
        const text = phrase.replace('<number>', englishNumberWords(n));
        expect({ text, intent: parseIntent(text, 'en').kind }).not.toEqual({ text, intent: 'unknown' });
      }
    }
  });
});
