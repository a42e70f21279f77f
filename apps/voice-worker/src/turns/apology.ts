import type { Language } from '../language';

/** What a turn that could not be answered says (DESIGN §1: replies follow what is known; here, nothing is). */
export const SORRY: Record<Language, string> = {
  en: 'Sorry, something went wrong.',
  zh: '抱歉，出了点问题。',
};
