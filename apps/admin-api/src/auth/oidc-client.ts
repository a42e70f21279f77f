import { Inject, Injectable } from '@nestjs/common';
import * as oidc from 'openid-client';
import type { Redis } from '@fleet/queues';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ApiError } from '../http/api-error';
import { REDIS } from '../infra/tokens';

export interface OidcIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

const PENDING_TTL_S = 600;

/**
 * The OpenID Connect relying party (authorization code flow with PKCE, state and nonce). The pending sign-in
 * lives in Redis, not in the process, so the callback may reach any replica of the API.
 */
@Injectable()
export class OidcClient {
  private discovered?: Promise<oidc.Configuration>;

  constructor(
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  get enabled(): boolean {
    return this.config.OIDC_ISSUER !== undefined;
  }

  /** Where to send the browser, and the state to bind to it (a cookie) against login CSRF. */
  async begin(): Promise<{ url: string; state: string }> {
    const config = await this.configuration();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    await this.redis.set(this.key(state), JSON.stringify({ codeVerifier, nonce }), 'EX', PENDING_TTL_S);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.config.OIDC_REDIRECT_URL!,
      scope: this.config.OIDC_SCOPES,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /** Completes the flow from the callback's query string; the state must match the browser's cookie. */
  async complete(query: string, browserState: string | undefined): Promise<OidcIdentity> {
    const state = new URLSearchParams(query).get('state');
    if (!state || state !== browserState) {
      throw new ApiError(
        400,
        'oidc_state_mismatch',
        'this sign-in was not started from this browser; start again',
      );
    }
    const pending = await this.redis.getdel(this.key(state));
    if (!pending) throw new ApiError(400, 'oidc_state_expired', 'the sign-in took too long; start again');
    const { codeVerifier, nonce } = JSON.parse(pending) as { codeVerifier: string; nonce: string };
    const config = await this.configuration();
    const currentUrl = new URL(this.config.OIDC_REDIRECT_URL!);
    currentUrl.search = query;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw new ApiError(
        401,
        'oidc_failed',
        `the identity provider refused the sign-in: ${(err as Error).message}`,
      );
    }
    const claims = tokens.claims()!;
    // Some providers put email only in userinfo, not in the ID token.
    const info =
      claims['email'] === undefined
        ? await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)
        : claims;
    return {
      issuer: claims.iss,
      subject: claims.sub,
      ...(typeof info['email'] === 'string' ? { email: info['email'] } : {}),
      emailVerified: info['email_verified'] === true,
      ...(typeof info['name'] === 'string' ? { name: info['name'] } : {}),
    };
  }

  private configuration(): Promise<oidc.Configuration> {
    if (!this.enabled)
      throw new ApiError(404, 'oidc_not_configured', 'OpenID Connect sign-in is not configured');
    this.discovered ??= oidc
      .discovery(
        new URL(this.config.OIDC_ISSUER!),
        this.config.OIDC_CLIENT_ID!,
        undefined,
        oidc.ClientSecretBasic(this.config.OIDC_CLIENT_SECRET),
        this.config.OIDC_ALLOW_HTTP ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err: Error) => {
        this.discovered = undefined; // the provider may be back on the next attempt
        throw new ApiError(
          502,
          'oidc_unavailable',
          `the identity provider cannot be reached: ${err.message}`,
        );
      });
    return this.discovered;
  }

  private key(state: string): string {
    return `${this.config.QUEUE_PREFIX}:oidc-pending:${state}`;
  }
}
