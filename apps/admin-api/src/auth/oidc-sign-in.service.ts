import { Inject, Injectable } from '@nestjs/common';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { RequestOrigin } from '../http/actor';
import { AuditService } from '../audit/audit.service';
import { forbidden } from '../http/api-error';
import { OperatorsRepository, type OperatorRecord } from '../operators/operators.repository';
import { AuthService, type SignedIn } from './auth.service';
import { OidcClient } from './oidc-client';

/**
 * Turns a provider's identity into an operator's session. An identity is found by (issuer, subject); the first
 * sign-in links it to the operator with the same verified email; an unknown person gets an account only when
 * OIDC_NEW_OPERATOR_ROLE says which role newcomers have.
 */
@Injectable()
export class OidcSignInService {
  constructor(
    private readonly client: OidcClient,
    private readonly operators: OperatorsRepository,
    private readonly auth: AuthService,
    private readonly audit: AuditService,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  begin(): Promise<{ url: string; state: string }> {
    return this.client.begin();
  }

  async complete(query: string, browserState: string | undefined, origin: RequestOrigin): Promise<SignedIn> {
    const identity = await this.client.complete(query, browserState);
    const operator = await this.operatorFor(identity);
    if (operator.disabledAt) throw forbidden('account_disabled', 'this account is disabled');
    const signedIn = await this.auth.startSession(operator, origin);
    // A GET, so the audit interceptor does not see it; a sign-in is worth an event all the same.
    await this.audit.record(signedIn.actor, origin, {
      action: 'auth.oidc_login',
      targetType: 'session',
      targetId: signedIn.actor.sessionId ?? null,
      details: { issuer: identity.issuer, subject: identity.subject },
    });
    return signedIn;
  }

  private async operatorFor(identity: {
    issuer: string;
    subject: string;
    email?: string;
    emailVerified: boolean;
    name?: string;
  }): Promise<OperatorRecord> {
    const linked = await this.operators.byOidc(identity.issuer, identity.subject);
    if (linked) return linked;
    if (!identity.email || !identity.emailVerified) {
      throw forbidden('oidc_email_unverified', 'the identity provider did not vouch for an email address');
    }
    const byEmail = await this.operators.byEmail(identity.email);
    if (byEmail) {
      if (byEmail.oidcSubject !== null) {
        throw forbidden('oidc_identity_mismatch', `${identity.email} is linked to another identity`);
      }
      await this.operators.bindOidc(byEmail.id, identity.issuer, identity.subject);
      return byEmail;
    }
    const role = this.config.OIDC_NEW_OPERATOR_ROLE;
    if (!role) {
      throw forbidden('no_account', `no operator account for ${identity.email}; ask an admin to create one`);
    }
    return this.operators.create({
      email: identity.email,
      name: identity.name ?? identity.email,
      role,
      oidc: { issuer: identity.issuer, subject: identity.subject },
    });
  }
}
