/** What a command asks for, before any tool is chosen. */
export type Property = 'volume' | 'brightness';

export type Intent =
  | { kind: 'set'; property: Property; value: number }
  | { kind: 'adjust'; property: Property; direction: 1 | -1; step: number }
  | { kind: 'query'; property: Property | 'theme' | 'battery' }
  | { kind: 'theme'; theme: 'light' | 'dark' }
  | { kind: 'photo'; question: string }
  | { kind: 'unknown' };

/** "a bit" is a tenth of the range; "a lot" three tenths. */
export const SMALL_STEP = 10;
export const LARGE_STEP = 30;
