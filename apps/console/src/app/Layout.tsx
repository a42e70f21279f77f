import { useEffect, type ReactNode } from 'react';
import { eventStream } from '../api/events';
import { useMe, useSession } from '../auth/session';
import { useLiveConnection } from '../hooks/useEvents';
import { useI18n } from '../i18n/i18n';
import { LANGS } from '../i18n/translate';
import { Link, usePathname } from './navigation';
import { paths } from './router';

const NAV = [
  ['nav.overview', paths.overview()],
  ['nav.devices', paths.devices()],
  ['nav.approvals', paths.approvals()],
  ['nav.campaigns', paths.campaigns()],
  ['nav.schedules', paths.schedules()],
  ['nav.profiles', paths.toolProfiles()],
  ['nav.audit', paths.audit()],
] as const;
/** Shown to admins only: what they alone manage. */
const ADMIN_NAV = [['nav.keys', paths.keys()]] as const;

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const nav = useMe().role === 'admin' ? [...NAV, ...ADMIN_NAV] : NAV;
  const active = (to: string) => (to === '/' ? pathname === '/' : pathname.startsWith(to));
  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          {t('app.name')}
        </Link>
        <nav aria-label={t('nav.label')}>
          {nav.map(([key, to]) => (
            <Link
              key={to}
              to={to}
              className={active(to) ? 'active' : undefined}
              aria-current={active(to) ? 'page' : undefined}
            >
              {t(key)}
            </Link>
          ))}
        </nav>
        <div className="topbar-right">
          <LiveDot />
          <LanguageSwitch />
          <WhoAmI />
        </div>
      </header>
      <main className="page">{children}</main>
    </div>
  );
}

function LiveDot() {
  const { t } = useI18n();
  const open = useLiveConnection();
  // Held open for the whole session, so moving between pages never misses a notice while reconnecting.
  useEffect(() => eventStream.subscribe(() => undefined), []);
  return (
    <span
      className={`live ${open ? 'on' : 'off'}`}
      title={open ? t('live.on') : t('live.off')}
      data-live={open}
    >
      ● {open ? t('live.label') : t('live.off_short')}
    </span>
  );
}

function LanguageSwitch() {
  const { lang, setLang, t } = useI18n();
  return (
    <select
      aria-label={t('lang.label')}
      value={lang}
      onChange={(e) => setLang(e.target.value as typeof lang)}
      className="lang"
    >
      {LANGS.map((l) => (
        <option key={l} value={l}>
          {t(`lang.${l}`)}
        </option>
      ))}
    </select>
  );
}

function WhoAmI() {
  const me = useMe();
  const { signOut } = useSession();
  const { t } = useI18n();
  return (
    <span className="whoami">
      <span title={me.email}>{me.name}</span>{' '}
      <span className="role" data-role={me.role}>
        {t(`role.${me.role}`)}
      </span>
      <button className="link" onClick={() => void signOut()}>
        {t('auth.sign_out')}
      </button>
    </span>
  );
}
