import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { MESSAGES, type MessageKey } from './messages';
import { detectLanguage, interpolate, LANGS, localeOf, type Lang, type Params } from './translate';

const STORAGE_KEY = 'fleet-console-lang';

export interface I18n {
  lang: Lang;
  setLang: (lang: Lang) => void;
  t: (key: MessageKey, params?: Params) => string;
  /** A date and time in the reader's language. */
  dateTime: (iso: string | null | undefined) => string;
  /** "3 min ago" / "3 分钟前". */
  ago: (iso: string | null | undefined) => string;
  number: (n: number) => string;
}

const I18nContext = createContext<I18n | undefined>(undefined);

function initialLang(): Lang {
  const stored = localStorage.getItem(STORAGE_KEY);
  if ((LANGS as readonly string[]).includes(stored ?? '')) return stored as Lang;
  return detectLanguage(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(initialLang);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);
  const setLang = useCallback((next: Lang) => {
    localStorage.setItem(STORAGE_KEY, next);
    setLangState(next);
  }, []);
  const value = useMemo<I18n>(() => {
    const locale = localeOf(lang);
    const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
    const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
    const numberFormat = new Intl.NumberFormat(locale);
    return {
      lang,
      setLang,
      t: (key, params) => interpolate(MESSAGES[lang][key], params),
      dateTime: (iso) => (iso ? dateFormat.format(new Date(iso)) : '—'),
      ago: (iso) => (iso ? relativeTime(relative, Date.parse(iso)) : '—'),
      number: (n) => numberFormat.format(n),
    };
  }, [lang, setLang]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

function relativeTime(format: Intl.RelativeTimeFormat, at: number): string {
  const seconds = Math.round((at - Date.now()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
