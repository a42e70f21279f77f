import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Role } from '@fleet/auth';
import { ApiError } from './api-error';

/** The person behind a request, and how they proved it. Four-eyes compares `operatorId`, never keys. */
export interface Actor {
  operatorId: string;
  email: string;
  name: string;
  /** The role in force: a key's role, capped by its owner's. */
  role: Role;
  /** `oauth`: an access token issued for `/mcp` by the configured authorization server (only `/mcp` takes one). */
  via: 'api_key' | 'session' | 'oauth';
  apiKeyId?: string;
  /** With `oauth`: the token's client (a machine agent's client credentials), its identity as an agent. */
  oauthClientId?: string;
  sessionId?: string;
  /** A key bounded to device groups (auth/device-scope.ts): their ids; it reaches no other device. Absent: all. */
  deviceGroups?: readonly string[];
}

/** Where the request came from, for audit events and sessions. */
export interface RequestOrigin {
  ip?: string;
  userAgent?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

export function originOf(request: FastifyRequest): RequestOrigin {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, ...(userAgent ? { userAgent } : {}) };
}

/** The authenticated actor (the guard has already refused anonymous requests on non-public routes). */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const actor = ctx.switchToHttp().getRequest<FastifyRequest>().actor;
  if (!actor) throw new ApiError(401, 'unauthenticated', 'sign in or send an API key');
  return actor;
});

export const Origin = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestOrigin =>
  originOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);
