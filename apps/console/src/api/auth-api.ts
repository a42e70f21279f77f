import { API_BASE, request } from './http';
import type { Me, SignedIn } from '@fleet/api-contract';

export const authApi = {
  me: () => request<Me>('GET', '/auth/me'),
  login: (email: string, password: string) =>
    request<SignedIn>('POST', '/auth/login', { body: { email, password } }),
  logout: () => request<void>('POST', '/auth/logout'),
  /** The first start's one-time link: sets the password and signs in. */
  signInWithLink: (token: string, password: string) =>
    request<SignedIn>('POST', '/auth/sign-in-link', { body: { token, password } }),
  /** Where the browser goes to sign in through the organisation's OpenID Connect provider. */
  oidcLoginUrl: `${API_BASE}/auth/oidc/login`,
  /**
   * Whether the API has OpenID Connect configured. The API says so on its own sign-in route: it redirects
   * to the provider when configured and answers 404 `oidc_not_configured` when not (admin-api auth).
   */
  async oidcAvailable(): Promise<boolean> {
    const response = await fetch(`${API_BASE}/auth/oidc/login`, {
      redirect: 'manual',
      credentials: 'same-origin',
    });
    return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
  },
};
