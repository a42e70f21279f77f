import { useEffect, useState, type FormEvent } from 'react';
import { authApi } from '../api/auth-api';
import { ErrorNote } from '../components/ErrorNote';
import { useI18n } from '../i18n/i18n';
import { LANGS } from '../i18n/translate';
import { useSession } from './session';

/** Email and password, and the organisation's OpenID Connect provider when the API has one configured. */
export function SignInPage() {
  const { t, lang, setLang } = useI18n();
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [oidc, setOidc] = useState(false);

  useEffect(() => {
    authApi.oidcAvailable().then(setOidc, () => setOidc(false));
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(email, password);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <div className="sign-in">
      <form onSubmit={(e) => void submit(e)} className="card">
        <h1>{t('app.name')}</h1>
        <p className="muted">{t('auth.intro')}</p>
        <label>
          {t('auth.email')}
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          {t('auth.password')}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorNote error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {t('auth.sign_in')}
        </button>
        {oidc && (
          <a className="button" href={authApi.oidcLoginUrl} data-testid="oidc-sign-in">
            {t('auth.sign_in_oidc')}
          </a>
        )}
        <div className="lang-row">
          {LANGS.map((l) => (
            <button
              type="button"
              key={l}
              className={`link ${l === lang ? 'active' : ''}`}
              onClick={() => setLang(l)}
            >
              {t(`lang.${l}`)}
            </button>
          ))}
        </div>
      </form>
    </div>
  );
}
