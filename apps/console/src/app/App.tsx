import { SessionProvider, useSession } from '../auth/session';
import { SignInPage } from '../auth/SignInPage';
import { WelcomePage } from '../auth/WelcomePage';
import { I18nProvider } from '../i18n/i18n';
import { Loading } from '../components/Loading';
import { Layout } from './Layout';
import { Pages } from './Pages';

export function App() {
  return (
    <I18nProvider>
      <SessionProvider>
        <Gate />
      </SessionProvider>
    </I18nProvider>
  );
}

/** Nothing but the sign-in page until the API says who is signed in. */
function Gate() {
  const { state } = useSession();
  if (state.kind === 'loading') return <Loading />;
  if (state.kind === 'signed_out')
    return window.location.pathname === '/welcome' ? <WelcomePage /> : <SignInPage />;
  return (
    <Layout>
      <Pages />
    </Layout>
  );
}
