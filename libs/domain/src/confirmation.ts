import { LRUCache } from 'lru-cache';
import { CONFIRMATION_PHRASINGS } from './confirmation-phrasings';

const EAST_ASIAN = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]';
const SPACE_BESIDE_EAST_ASIAN = new RegExp(` (?=${EAST_ASIAN})|(?<=${EAST_ASIAN}) `, 'gu');

/**
 * Prose as the confirmation table compares it: Unicode NFKC (full-width letters and compatibility forms become
 * plain ones), invisible format characters dropped (a zero-width space or a bidi control inside a word must not
 * hide it), typographic apostrophes made plain, Markdown emphasis marks read as spaces, lower case, every run of
 * whitespace (line breaks included) one space, and no space at all beside Chinese or Japanese characters (those
 * scripts put none between words, so "需要 用户确认" is the same words as "需要用户确认").
 */
export function normaliseProse(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/[\u2018\u2019\u02BC\u2032]/g, "'")
    .replace(/[*_`~]/g, ' ')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .replace(SPACE_BESIDE_EAST_ASIAN, '')
    .trim();
}

interface Matcher {
  phrase: string;
  pattern: RegExp;
}

function matcherOf(phrase: string): Matcher {
  const plain = normaliseProse(phrase);
  const escaped = plain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A Latin phrase starts at a word boundary ("caution" is not in "precaution"); it may run on into a longer
  // word ("confirm" in "confirmation").
  const boundary = /^[\p{Script=Latin}\p{N}]/u.test(plain) ? '(?<![\\p{L}\\p{N}])' : '';
  return { phrase, pattern: new RegExp(`${boundary}${escaped}`, 'u') };
}

const MATCHERS: readonly Matcher[] = CONFIRMATION_PHRASINGS.map((p) => matcherOf(p.phrase));

/**
 * What recent descriptions ask, by their exact text. Every operator call's gate reads its tool's description, and
 * normalising it (NFKC, six replaces) and trying each phrasing cost more than the rest of the gate; a fleet has
 * few distinct descriptions. Bounded in entries and in characters held, so invented descriptions cannot grow it.
 */
const ASKED = new LRUCache<string, { phrase: string | undefined }>({
  max: 1_000,
  maxSize: 4_000_000,
  sizeCalculation: (_, description) => description.length + 1,
});

/** The table's phrasing a description asks for the user's confirmation with, or undefined (DESIGN §4). */
export function confirmationAskedIn(description: string): string | undefined {
  const known = ASKED.get(description);
  if (known) return known.phrase;
  const prose = normaliseProse(description);
  const phrase = MATCHERS.find((m) => m.pattern.test(prose))?.phrase;
  ASKED.set(description, { phrase });
  return phrase;
}

/** The description asks for the user's confirmation before the tool runs. */
export function asksForConfirmation(description: string): boolean {
  return confirmationAskedIn(description) !== undefined;
}
