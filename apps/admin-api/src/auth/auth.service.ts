import { Inject, Injectable } from '@nestjs/common';
import { hashPassword, parseApiKey, ROLES, verifyApiKeySecret, verifyPassword, type Role } from '@fleet/auth';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { Actor, RequestOrigin } from '../http/actor';
import { ApiError } from '../http/api-error';
import { OperatorsRepository } from '../operators/operators.repository';
import { CachedCredentials } from './cached-credentials';
import { CredentialsRepository } from './credentials.repository';
import { LoginThrottle } from './login-throttle';
import { hashSessionToken, isSessionToken, newSessionToken } from './session-token';

export interface SignedIn {
  token: string;
  expiresAt: Date;
  actor: Actor;
}

// Verified when an email is unknown, so that a failed sign-in takes as long whether or not the account exists.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

const invalidCredentials = () =>
  new ApiError(401, 'invalid_credentials', 'the API key or session token is invalid, revoked or expired');

/** Who is calling: API keys, sessions from password or OpenID Connect sign-in, and signing out. */
@Injectable()
export class AuthService {
  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly lookups: CachedCredentials,
    private readonly operators: OperatorsRepository,
    private readonly throttle: LoginThrottle,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  /** The actor a bearer token or session cookie proves; undefined when none was presented. */
  async authenticate(
    bearer: string | undefined,
    cookieToken: string | undefined,
  ): Promise<Actor | undefined> {
    if (bearer !== undefined) {
      const key = parseApiKey(bearer);
      if (key) return this.byApiKey(key.prefix, key.secret);
      if (isSessionToken(bearer)) return this.bySession(bearer);
      throw invalidCredentials();
    }
    if (cookieToken !== undefined && isSessionToken(cookieToken)) return this.bySession(cookieToken);
    return undefined;
  }

  async login(email: string, password: string, origin: RequestOrigin): Promise<SignedIn> {
    await this.refuseWhileThrottled(email, origin);
    const operator = await this.operators.byEmail(email);
    const ok = await verifyPassword(password, operator?.passwordHash ?? DUMMY_HASH);
    if (!operator || !ok || operator.disabledAt) {
      await this.throttle.failed(email, origin.ip);
      throw new ApiError(401, 'invalid_login', 'wrong email or password, or the account is disabled');
    }
    await this.throttle.succeeded(email, origin.ip);
    return this.startSession(operator, origin);
  }

  /**
   * A person changes their own password, proving the current one (throttled like a sign-in: a stolen session
   * must not become a way to guess it). Their other sessions end; the one they did it in stays, if it is one.
   */
  async changePassword(actor: Actor, current: string, next: string, origin: RequestOrigin): Promise<void> {
    await this.refuseWhileThrottled(actor.email, origin);
    const operator = await this.operators.byId(actor.operatorId);
    if (!operator?.passwordHash) {
      throw new ApiError(
        409,
        'no_password',
        'this account signs in through OpenID Connect and has no password',
      );
    }
    if (!(await verifyPassword(current, operator.passwordHash))) {
      await this.throttle.failed(actor.email, origin.ip);
      throw new ApiError(403, 'wrong_password', 'the current password is wrong', [
        { field: 'body.currentPassword', message: 'wrong password' },
      ]);
    }
    await this.throttle.succeeded(actor.email, origin.ip);
    await this.operators.update(
      actor.operatorId,
      { passwordHash: await hashPassword(next) },
      actor.sessionId,
    );
  }

  private async refuseWhileThrottled(email: string, origin: RequestOrigin): Promise<void> {
    const retryAfterS = await this.throttle.blockedFor(email, origin.ip);
    if (retryAfterS !== undefined) {
      throw new ApiError(
        429,
        'too_many_attempts',
        'too many failed sign-ins; try again later',
        undefined,
        retryAfterS,
      );
    }
  }

  async startSession(
    operator: { id: string; email: string; name: string; role: Role },
    origin: RequestOrigin,
  ): Promise<SignedIn> {
    const { token, hash } = newSessionToken();
    const expiresAt = new Date(Date.now() + this.config.SESSION_TTL_S * 1000);
    const sessionId = await this.credentials.createSession({
      operatorId: operator.id,
      tokenHash: hash,
      expiresAt,
      ...origin,
    });
    const actor: Actor = {
      operatorId: operator.id,
      email: operator.email,
      name: operator.name,
      role: operator.role,
      via: 'session',
      sessionId,
    };
    return { token, expiresAt, actor };
  }

  async logout(actor: Actor): Promise<void> {
    if (!actor.sessionId) {
      throw new ApiError(
        400,
        'not_a_session',
        'sign-out ends a session; revoke an API key with DELETE /api-keys/:id',
      );
    }
    await this.credentials.revokeSession(actor.sessionId);
  }

  private async byApiKey(prefix: string, secret: string): Promise<Actor> {
    const key = await this.lookups.keyByPrefix(prefix);
    if (!key || key.revoked || key.operator.disabled || !verifyApiKeySecret(secret, key.secretHash)) {
      throw invalidCredentials();
    }
    this.lookups.touchKey(key.keyId);
    return {
      operatorId: key.operator.id,
      email: key.operator.email,
      name: key.operator.name,
      // A key never gives more than its owner has: demoting a person demotes their keys.
      role: lowerRole(key.keyRole, key.operator.role),
      via: 'api_key',
      apiKeyId: key.keyId,
      ...(key.groupIds ? { deviceGroups: key.groupIds } : {}),
    };
  }

  private async bySession(token: string): Promise<Actor> {
    const session = await this.lookups.liveSession(hashSessionToken(token));
    if (!session || session.operator.disabled) throw invalidCredentials();
    return {
      operatorId: session.operator.id,
      email: session.operator.email,
      name: session.operator.name,
      role: session.operator.role,
      via: 'session',
      sessionId: session.sessionId,
    };
  }
}

function lowerRole(a: Role, b: Role): Role {
  return ROLES[Math.min(ROLES.indexOf(a), ROLES.indexOf(b))]!;
}
