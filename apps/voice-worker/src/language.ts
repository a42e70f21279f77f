/** The languages the assistant answers in (DESIGN §1: replies in the user's language). */
export type Language = 'en' | 'zh';

const CJK = /[\u3400-\u9fff]/;

/** A stated language wins ("zh-CN", "en-US"); otherwise Chinese characters mean Chinese. */
export function languageOf(text: string, stated?: string | null): Language {
  const tag = stated?.toLowerCase();
  if (tag?.startsWith('zh')) return 'zh';
  if (tag?.startsWith('en')) return 'en';
  return CJK.test(text) ? 'zh' : 'en';
}
