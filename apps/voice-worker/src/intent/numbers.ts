// Numbers as people say them: digits, English words ("forty two", "one hundred") and Chinese numerals (四十五, 一百).

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = [
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** English words for 0..100, as the speech grammar spells them. */
export function englishNumberWords(n: number): string {
  if (n === 100) return 'one hundred';
  if (n < 10) return ONES[n]!;
  if (n < 20) return TEENS[n - 10]!;
  const tens = TENS[Math.floor(n / 10)]!;
  return n % 10 === 0 ? tens : `${tens} ${ONES[n % 10]!}`;
}

/** The first number in English text (digits or words up to "one hundred"), or undefined. */
export function findEnglishNumber(text: string): number | undefined {
  const digits = /\b(\d{1,4})\b/.exec(text);
  if (digits) return Number(digits[1]);
  const words = text.toLowerCase().replace(/-/g, ' ').split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    const value = englishNumberAt(words, i);
    if (value !== undefined) return value;
  }
  return undefined;
}

function englishNumberAt(words: string[], i: number): number | undefined {
  const w = words[i]!;
  if ((w === 'one' || w === 'a') && words[i + 1] === 'hundred') return 100;
  if (w === 'hundred') return 100;
  const tens = TENS.indexOf(w);
  if (tens >= 2) {
    const next = ONES.indexOf(words[i + 1] ?? '');
    return tens * 10 + (next >= 1 ? next : 0);
  }
  const teen = TEENS.indexOf(w);
  if (teen >= 0) return 10 + teen;
  const one = ONES.indexOf(w);
  return one >= 0 ? one : undefined;
}

const ZH_DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

/** The first number in Chinese text: Arabic digits, or numerals up to 一百 (十五, 四十, 四十五, 百分之三十). */
export function findChineseNumber(text: string): number | undefined {
  const digits = /(\d{1,4})/.exec(text);
  if (digits) return Number(digits[1]);
  const match = /[零〇一二两三四五六七八九十百]+/.exec(text.replace(/百分之/g, ''));
  return match ? chineseNumeral(match[0]) : undefined;
}

function chineseNumeral(s: string): number | undefined {
  if (s === '百' || s === '一百') return 100;
  const ten = s.indexOf('十');
  if (ten < 0) return s.length === 1 ? ZH_DIGITS[s] : undefined;
  const tensPart = s.slice(0, ten);
  const onesPart = s.slice(ten + 1);
  const tens = tensPart === '' ? 1 : ZH_DIGITS[tensPart];
  const ones = onesPart === '' ? 0 : ZH_DIGITS[onesPart];
  return tens === undefined || ones === undefined ? undefined : tens * 10 + ones;
}
