import { VERDICT_MEANING, VERDICTS } from '@fleet/domain';
import { en } from './en';
import { MESSAGES } from './messages';
import { detectLanguage, interpolate, LANGS, placeholders } from './translate';
import { zh } from './zh';

describe('the console speaks English and Chinese', () => {
  it('has every message in both languages, and nothing in one that the other lacks', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const lang of LANGS) expect(Object.keys(MESSAGES[lang])).toHaveLength(Object.keys(en).length);
  });

  it('leaves no message empty', () => {
    for (const lang of LANGS) {
      const empty = Object.entries(MESSAGES[lang]).filter(([, text]) => text.trim() === '');
      expect(empty).toEqual([]);
    }
  });

  it('uses the same placeholders in both languages', () => {
    const differing = Object.keys(en).filter(
      (key) =>
        placeholders(en[key as keyof typeof en]).join() !== placeholders(zh[key as keyof typeof en]).join(),
    );
    expect(differing).toEqual([]);
  });

  it('translates every message into Chinese rather than copying the English', () => {
    // Names that read the same in both (JSON-RPC, an arrow between two values, the language's own name) are the
    // exceptions.
    const same = Object.keys(en).filter((key) => en[key as keyof typeof en] === zh[key as keyof typeof en]);
    expect(same.sort()).toEqual([
      'evidence.jsonrpc_id',
      'explain.what.path',
      'identity.change',
      'lang.en',
      'lang.zh',
    ]);
  });

  it("says what each verdict means in the platform's own words", () => {
    for (const verdict of VERDICTS) expect(en[`verdict.meaning.${verdict}`]).toBe(VERDICT_MEANING[verdict]);
  });

  it("picks the browser's language: Chinese for any zh tag, English otherwise", () => {
    expect(detectLanguage(['zh-CN', 'en'])).toBe('zh');
    expect(detectLanguage(['zh-TW'])).toBe('zh');
    expect(detectLanguage(['fr-FR', 'zh-Hans-CN'])).toBe('zh');
    expect(detectLanguage(['en-US', 'zh-CN'])).toBe('en');
    expect(detectLanguage(['de-DE'])).toBe('en');
    expect(detectLanguage([])).toBe('en');
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(interpolate('{n} devices, {m}', { n: 3 })).toBe('3 devices, {m}');
  });
});
