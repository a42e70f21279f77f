import { useState, type FormEvent } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { useI18n } from '../i18n/i18n';
import { useSession } from './session';
import { signInToken } from './sign-in-token';

/**
 * The first admin's first visit, from the link the first `npm start` printed (`/welcome#token=…`: in the
 * fragment, so it never reaches a server log or a Referer). Sets the password and signs in.
 */
export function WelcomePage() {
  const { t } = useI18n();
  const { signInWithLink } = useSession();
  const token = signInToken(window.location.hash);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!token) return;
    if (password !== repeat) {
      setError(new Error(t('welcome.mismatch')));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await signInWithLink(token, password);
      window.history.replaceState(null, '', '/'); // the token is spent: out of the address bar and history
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <div className="sign-in" data-page="welcome">
      <form onSubmit={(e) => void submit(e)} className="card">
        <h1>{t('welcome.title')}</h1>
        <p className="muted">{token ? t('welcome.intro') : t('welcome.no_token')}</p>
        <label>
          {t('welcome.password')}
          <input
            type="password"
            autoComplete="new-password"
            minLength={12}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <label>
          {t('welcome.repeat')}
          <input
            type="password"
            autoComplete="new-password"
            minLength={12}
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        </label>
        <ErrorNote error={error} />
        <button type="submit" className="primary" disabled={busy || !token}>
          {t('welcome.submit')}
        </button>
      </form>
    </div>
  );
}
