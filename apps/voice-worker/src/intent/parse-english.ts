import { LARGE_STEP, SMALL_STEP, type Intent, type Property } from './intent';
import { findEnglishNumber } from './numbers';

const UP = /\b(up|louder|higher|raise|increase|brighter|more)\b/;
const DOWN = /\b(down|quieter|softer|lower|decrease|reduce|dimmer|dim|darker|less)\b/;

/** English commands: "set the volume to forty", "a bit quieter", "what is the volume", "use the dark theme". */
export function parseEnglish(utterance: string): Intent {
  const text = utterance.toLowerCase().replace(/[^a-z0-9%' -]/g, ' ');
  if (/\b(photo|picture|camera|what do you see|look at|in front of you)\b/.test(text)) {
    return { kind: 'photo', question: utterance.trim() };
  }
  const theme = /\b(dark|light)\b(?=.*\b(theme|mode)\b)|\b(theme|mode)\b.*\b(dark|light)\b/.exec(text);
  if (theme) return { kind: 'theme', theme: (theme[1] ?? theme[4]) === 'dark' ? 'dark' : 'light' };
  const property = propertyOf(text);
  if (/\b(what|how)\b/.test(text) || /\?$/.test(utterance.trim())) {
    if (/\btheme\b/.test(text)) return { kind: 'query', property: 'theme' };
    if (/\bbattery\b/.test(text)) return { kind: 'query', property: 'battery' };
    if (property) return { kind: 'query', property };
  }
  if (!property) return { kind: 'unknown' };
  const value = findEnglishNumber(text.replace(/\bby\s+\S+(\s+\S+)?/, ''));
  if (value !== undefined && /\b(to|at|set|volume|brightness)\b/.test(text) && !/\bby\b/.test(text)) {
    return { kind: 'set', property, value };
  }
  const direction = UP.test(text) ? 1 : DOWN.test(text) ? -1 : undefined;
  if (direction === undefined) return { kind: 'unknown' };
  const by = /\bby\s+(.+)$/.exec(text);
  const step = by ? findEnglishNumber(by[1]!) : undefined;
  const large = /\b(a lot|much|way)\b/.test(text);
  return { kind: 'adjust', property, direction, step: step ?? (large ? LARGE_STEP : SMALL_STEP) };
}

function propertyOf(text: string): Property | undefined {
  if (/\b(brightness|bright|brighter|dim|dimmer|darker|screen)\b/.test(text)) return 'brightness';
  if (/\b(volume|sound|loud|louder|quiet|quieter|soft|softer|speaker)\b/.test(text)) return 'volume';
  return undefined;
}
