import type { Language } from '../language';
import type { Intent } from './intent';
import { parseChinese } from './parse-chinese';
import { parseEnglish } from './parse-english';

export function parseIntent(utterance: string, language: Language): Intent {
  return language === 'zh' ? parseChinese(utterance) : parseEnglish(utterance);
}
