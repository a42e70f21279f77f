import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Audited } from '../audit/audited';
import { ADMIN_API_CONFIG, secureCookies, type AdminApiConfig } from '../config';
import { CurrentActor, Origin, type Actor, type RequestOrigin } from '../http/actor';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidQuery } from '../http/validation';
import {
  changePasswordBody,
  loginBody,
  oidcCallbackQuery,
  signedInView,
  signInLinkBody,
  whoAmIView,
} from './auth.schemas';
import { AuthService, type SignedIn } from './auth.service';
import { OidcSignInService } from './oidc-sign-in.service';
import { SignInLinkService } from './sign-in-link.service';
import { readCookie, sessionCookie } from './session-token';
import type { z } from 'zod';

const OIDC_STATE_COOKIE = 'fleet_oidc_state';

@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly oidc: OidcSignInService,
    private readonly signInLinks: SignInLinkService,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  @Post('login')
  @HttpCode(200)
  @Roles('public')
  @Audited('auth.login', 'session')
  @Doc({ summary: 'Sign in with email and password', response: { status: 200, schema: signedInView } })
  async login(
    @ValidBody(loginBody) body: z.infer<typeof loginBody>,
    @Origin() origin: RequestOrigin,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.infer<typeof signedInView>> {
    return this.signedIn(await this.auth.login(body.email, body.password, origin), request, reply);
  }

  @Post('sign-in-link')
  @HttpCode(200)
  @Roles('public')
  @Audited('auth.sign_in_link', 'session')
  @Doc({
    summary: 'Sign in once with the link the first start printed, setting a password',
    response: { status: 200, schema: signedInView },
  })
  async signInLink(
    @ValidBody(signInLinkBody) body: z.infer<typeof signInLinkBody>,
    @Origin() origin: RequestOrigin,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.infer<typeof signedInView>> {
    return this.signedIn(await this.signInLinks.redeem(body.token, body.password, origin), request, reply);
  }

  @Post('logout')
  @HttpCode(204)
  @Roles('viewer')
  @Audited('auth.logout', 'session')
  @Doc({ summary: 'End the current session', response: { status: 204 } })
  async logout(@CurrentActor() actor: Actor, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.auth.logout(actor);
    void reply.header('set-cookie', sessionCookie('', 0, secureCookies(this.config)));
  }

  @Post('password')
  @HttpCode(204)
  @Roles('viewer')
  @Audited('auth.password_change', 'operator')
  @Doc({
    summary: 'Change your own password (the current one proves it is you)',
    description:
      'Ends every other session of yours; the session this is sent with stays. API keys are not affected.',
    response: { status: 204 },
  })
  async changePassword(
    @CurrentActor() actor: Actor,
    @ValidBody(changePasswordBody) body: z.infer<typeof changePasswordBody>,
    @Origin() origin: RequestOrigin,
  ): Promise<void> {
    await this.auth.changePassword(actor, body.currentPassword, body.password, origin);
  }

  @Get('me')
  @Roles('viewer')
  @Doc({
    summary: 'Who the credentials belong to, and the role in force',
    response: { status: 200, schema: whoAmIView },
  })
  me(@CurrentActor() actor: Actor): z.infer<typeof whoAmIView> {
    return {
      id: actor.operatorId,
      email: actor.email,
      name: actor.name,
      role: actor.role,
      via: actor.via,
      ...(actor.apiKeyId ? { apiKeyId: actor.apiKeyId } : {}),
      ...(actor.sessionId ? { sessionId: actor.sessionId } : {}),
    };
  }

  @Get('oidc/login')
  @Roles('public')
  @Doc({ summary: 'Start an OpenID Connect sign-in (redirects to the provider)', response: { status: 302 } })
  async oidcLogin(@Res() reply: FastifyReply): Promise<void> {
    const { url, state } = await this.oidc.begin();
    const cookie = `${OIDC_STATE_COOKIE}=${state}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600${
      secureCookies(this.config) ? '; Secure' : ''
    }`;
    // SameSite=Lax: the provider's redirect back is a top-level navigation from another site.
    await reply.header('set-cookie', cookie).redirect(url, 302);
  }

  @Get('oidc/callback')
  @Roles('public')
  @Doc({
    summary: 'Where the provider sends the browser back',
    response: { status: 200, schema: signedInView },
  })
  async oidcCallback(
    @ValidQuery(oidcCallbackQuery) _query: Record<string, string>,
    @Origin() origin: RequestOrigin,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const query = request.url.split('?')[1] ?? '';
    const browserState = readCookie(request.headers.cookie, OIDC_STATE_COOKIE);
    const body = this.signedIn(await this.oidc.complete(query, browserState, origin), request, reply);
    if (this.config.OIDC_SUCCESS_REDIRECT) await reply.redirect(this.config.OIDC_SUCCESS_REDIRECT, 302);
    else await reply.code(200).send(body);
  }

  private signedIn(s: SignedIn, request: FastifyRequest, reply: FastifyReply): z.infer<typeof signedInView> {
    request.actor = s.actor; // the audit event names who signed in
    void reply.header(
      'set-cookie',
      sessionCookie(s.token, this.config.SESSION_TTL_S, secureCookies(this.config)),
    );
    return {
      token: s.token,
      expiresAt: s.expiresAt.toISOString(),
      operator: { id: s.actor.operatorId, email: s.actor.email, name: s.actor.name, role: s.actor.role },
    };
  }
}
