import type { Language } from '../language';

const THEME_ZH: Record<string, string> = { dark: '深色', light: '浅色' };

/** What the intent engine says on its own (answers to questions; actions are worded from verdicts). */
export const engineTexts = {
  volumeIs: (l: Language, v: unknown) =>
    l === 'zh' ? `现在音量是${String(v)}。` : `The volume is ${String(v)}.`,
  brightnessIs: (l: Language, v: unknown) =>
    l === 'zh' ? `现在亮度是${String(v)}。` : `The brightness is ${String(v)}.`,
  themeIs: (l: Language, t: unknown) =>
    l === 'zh' ? `现在是${THEME_ZH[String(t)] ?? String(t)}主题。` : `The theme is ${String(t)}.`,
  batteryIs: (l: Language, v: unknown) =>
    l === 'zh' ? `电量还有百分之${String(v)}。` : `The battery is at ${String(v)} percent.`,
  unknown: (l: Language) => (l === 'zh' ? '抱歉，我没听懂。' : 'Sorry, I did not understand that.'),
  unavailable: (l: Language) => (l === 'zh' ? '这个设备做不到。' : 'This device cannot do that.'),
  noStatus: (l: Language) => (l === 'zh' ? '我读不到设备的状态。' : 'I could not read the device status.'),
  done: (l: Language) => (l === 'zh' ? '好的。' : 'OK.'),
};
