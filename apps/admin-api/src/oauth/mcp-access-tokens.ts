import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { roleAllows, type Role } from '@fleet/auth';
import { Counter, type Registry } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { Actor } from '../http/actor';
import { ApiError } from '../http/api-error';
import { METRICS_REGISTRY } from '../infra/tokens';
import { OperatorsRepository } from '../operators/operators.repository';

/**
 * `/mcp` as an OAuth 2.1 resource server (MCP 2025-06-18 and later, basic/authorization): a JWT access token
 * (RFC 9068) signed by the configured issuer's keys, whose audience is this resource (RFC 8707: a token issued for
 * another resource is refused, even from the same issuer), of a client the configuration names as an agent. The
 * agent acts for the person the configuration names, with at most that person's role.
 */
@Injectable()
export class McpAccessTokens {
  private jwks?: ReturnType<typeof createRemoteJWKSet>;
  private readonly refused: Counter;

  constructor(
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    private readonly operators: OperatorsRepository,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.refused = new Counter({
      name: 'admin_api_mcp_token_refusals_total',
      help: 'OAuth access tokens /mcp refused, by reason',
      labelNames: ['reason'],
      registers: [registry],
    });
  }

  get enabled(): boolean {
    return this.config.MCP_OAUTH_ISSUER !== undefined && this.config.MCP_RESOURCE_URL !== undefined;
  }

  /** Whether a bearer is a JWT (three dot-separated base64url parts), not one of the API's own credentials. */
  looksLikeJwt(bearer: string): boolean {
    return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(bearer);
  }

  async actorOf(token: string): Promise<Actor> {
    const payload = await this.verify(token);
    const clientId = typeof payload['client_id'] === 'string' ? payload['client_id'] : payload['azp'];
    const agent = typeof clientId === 'string' ? this.config.MCP_OAUTH_CLIENTS[clientId] : undefined;
    // A valid token of a client that is no agent here, or whose person can no longer act: the token is fine
    // and asking for another would not help (a 401 makes an MCP client authorize again), so 403.
    if (typeof clientId !== 'string' || !agent)
      throw this.refuse('unknown_client', 'this client is no agent here', 403);
    const operator = await this.operators.byEmail(agent.operator);
    if (!operator || operator.disabledAt)
      throw this.refuse('no_operator', 'the person this agent acts for cannot act', 403);
    const role: Role = roleAllows(operator.role, agent.role) ? agent.role : operator.role;
    return {
      operatorId: operator.id,
      email: operator.email,
      name: operator.name,
      role,
      via: 'oauth',
      oauthClientId: clientId,
      ...(agent.groups ? { deviceGroups: agent.groups } : {}),
    };
  }

  private async verify(token: string): Promise<JWTPayload> {
    const keys = await this.keys(); // outside the try: an issuer that cannot be asked is no fault of the token
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: this.config.MCP_OAUTH_ISSUER!,
        audience: this.config.MCP_RESOURCE_URL!,
        // RFC 9068 §4: an access token says it is one, so an ID token (or any other JWT) cannot pass for it.
        typ: 'at+jwt',
      });
      return payload;
    } catch (err) {
      const code = (err as { code?: string }).code;
      // jose names every fault of a token; what has no code (a failed fetch) or is the key set's is the issuer's.
      if (code === undefined || code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JWKS_INVALID') {
        throw issuerUnavailable('its keys could not be fetched');
      }
      if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && (err as { claim?: string }).claim === 'aud') {
        throw this.refuse('wrong_audience', 'this token was not issued for this resource');
      }
      if (code === 'ERR_JWT_EXPIRED') throw this.refuse('expired', 'the access token has expired');
      throw this.refuse('invalid', 'the access token is not valid here');
    }
  }

  private async keys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.jwks) return this.jwks;
    const url = this.config.MCP_OAUTH_JWKS_URL ?? (await this.discoverJwksUri());
    this.jwks = createRemoteJWKSet(new URL(url));
    return this.jwks;
  }

  /**
   * The issuer's metadata (RFC 8414 §3: `/.well-known/oauth-authorization-server` inserted before the issuer's
   * path; else OpenID Connect Discovery's, appended to it), which must name the configured issuer (§3.3).
   */
  private async discoverJwksUri(): Promise<string> {
    const issuer = this.config.MCP_OAUTH_ISSUER!;
    const { origin, pathname } = new URL(issuer);
    const path = pathname.replace(/\/+$/, '');
    for (const url of [
      `${origin}/.well-known/oauth-authorization-server${path}`,
      `${origin}${path}/.well-known/openid-configuration`,
    ]) {
      const answer = await fetch(url).catch(() => undefined);
      if (!answer?.ok) continue;
      const meta = (await answer.json().catch(() => ({}))) as { issuer?: unknown; jwks_uri?: unknown };
      if (meta.issuer === issuer && typeof meta.jwks_uri === 'string') return meta.jwks_uri;
    }
    throw issuerUnavailable('it does not say where its keys are');
  }

  private refuse(reason: string, message: string, status: 401 | 403 = 401): ApiError {
    this.refused.inc({ reason });
    return new ApiError(status, status === 401 ? 'invalid_token' : reason, message);
  }
}

/** 503 with Retry-After: the client should try again, not ask for another token. */
function issuerUnavailable(why: string): ApiError {
  return new ApiError(
    503,
    'issuer_unavailable',
    `the authorization server cannot be used: ${why}`,
    undefined,
    5,
  );
}
