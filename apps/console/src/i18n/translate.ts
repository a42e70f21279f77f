// Pure helpers of the console's two languages (no React here: the unit tests use them directly).

export const LANGS = ['en', 'zh'] as const;
export type Lang = (typeof LANGS)[number];

/** The browser's first preferred language the console speaks (`zh-CN`, `zh-TW`, `zh` → zh), else English. */
export function detectLanguage(preferred: readonly string[]): Lang {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'zh') return 'zh';
    if (base === 'en') return 'en';
  }
  return 'en';
}

export type Params = Record<string, string | number>;

/** Fills `{name}` placeholders; a placeholder without a value stays visible rather than vanishing. */
export function interpolate(template: string, params: Params = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** The placeholder names of a message, sorted: both languages must use the same ones. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

export function localeOf(lang: Lang): string {
  return lang === 'zh' ? 'zh-CN' : 'en-GB';
}
