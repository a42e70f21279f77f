// Text a device supplies (tool names and descriptions, board names, replies) is shown as data, never as layout:
// the characters that reorder text around them (Unicode bidi formatting: embeddings and overrides U+202A–202E,
// isolates U+2066–2069, the marks U+200E, U+200F and U+061C) are spelt out instead of acting, so
// `self.sec.\u202egnp.exe` reads as itself and not as `self.sec.exe.png`. Pure: DeviceText renders it.

/** The bidi formatting characters (libs/domain's BIDI_CONTROLS; constants.spec.ts holds the two together). */
export const BIDI_CONTROL_CHARS = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
] as const;

const CONTROLS = new RegExp(`[${BIDI_CONTROL_CHARS.join('')}]`, 'gu');

/** A run of plain text, or one control character, named by its code point (`U+202E`). */
export type TextPiece = { text: string } | { control: string };

/** The text as runs, each control character apart and named. */
export function revealControls(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const m of text.matchAll(CONTROLS)) {
    if (m.index > last) pieces.push({ text: text.slice(last, m.index) });
    pieces.push({ control: codePoint(m[0]) });
    last = m.index + m[0].length;
  }
  if (last < text.length || pieces.length === 0) pieces.push({ text: text.slice(last) });
  return pieces;
}

/** How a control is shown: ⟨U+202E⟩. */
export const controlMarker = (control: string): string => `⟨${control}⟩`;

/**
 * The plain-text form, for where no element can go (an `<option>`, a `title`, a value inside a translated
 * sentence): every control spelt out, the whole between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, the
 * plain-text twin of `<bdi>`, so a right-to-left name cannot reorder the words around it either.
 */
export function isolatedText(text: string): string {
  const shown = revealControls(text)
    .map((p) => ('control' in p ? controlMarker(p.control) : p.text))
    .join('');
  return `\u2068${shown}\u2069`;
}

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
