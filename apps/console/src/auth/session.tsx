import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { authApi } from '../api/auth-api';
import { eventStream } from '../api/events';
import { ApiError, onUnauthenticated } from '../api/http';
import type { Me } from '@fleet/api-contract';
import { can, type Action } from './roles';

type SessionState = { kind: 'loading' } | { kind: 'signed_out' } | { kind: 'signed_in'; me: Me };

export interface Session {
  state: SessionState;
  signIn: (email: string, password: string) => Promise<void>;
  signInWithLink: (token: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<Session | undefined>(undefined);

/** Who is signed in, from GET /auth/me; the session itself is the API's HttpOnly cookie. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ kind: 'loading' });

  const load = useCallback(
    () =>
      authApi.me().then(
        (me) => setState({ kind: 'signed_in', me }),
        (err: unknown) => {
          if (err instanceof ApiError && err.status === 401) setState({ kind: 'signed_out' });
          else throw err;
        },
      ),
    [],
  );

  useEffect(() => {
    load().catch(() => setState({ kind: 'signed_out' }));
    return onUnauthenticated(() => {
      eventStream.close();
      setState({ kind: 'signed_out' });
    });
  }, [load]);

  const value = useMemo<Session>(
    () => ({
      state,
      async signIn(email, password) {
        await authApi.login(email, password);
        await load();
      },
      async signInWithLink(token, password) {
        await authApi.signInWithLink(token, password);
        await load();
      },
      async signOut() {
        await authApi.logout().catch(() => undefined);
        eventStream.close();
        setState({ kind: 'signed_out' });
      },
    }),
    [state, load],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in person (pages render only when someone is signed in). */
export function useMe(): Me {
  const { state } = useSession();
  if (state.kind !== 'signed_in') throw new Error('useMe while signed out');
  return state.me;
}

/** Whether the signed-in person's role allows an action. */
export function useCan(action: Action): boolean {
  return can(useMe().role, action);
}
