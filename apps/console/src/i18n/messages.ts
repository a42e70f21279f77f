import { en } from './en';
import { zh } from './zh';
import type { Lang } from './translate';

export type MessageKey = keyof typeof en;
/** Every language has every key (tsc refuses a missing or unknown one; the unit test checks placeholders). */
export type Messages = Record<MessageKey, string>;

export const MESSAGES: Record<Lang, Messages> = { en, zh };
