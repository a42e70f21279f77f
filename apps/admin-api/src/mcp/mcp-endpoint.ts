import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '@fleet/telemetry';
import { bearerOf } from '../auth/auth.guard';
import { AuthService } from '../auth/auth.service';
import { originOf, type Actor } from '../http/actor';
import { ApiError } from '../http/api-error';
import { JsonDepthRefusals } from '../http/json-depth-refusals';
import { LOGGER } from '../infra/tokens';
import type { McpSession } from './mcp-session';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { McpAccessTokens } from '../oauth/mcp-access-tokens';
import { ProtectedResource } from '../oauth/protected-resource';
import { agentIdOf } from './agent-identity';
import { McpOrigins } from './mcp-origins';
import { McpSessions } from './mcp-sessions';
import { ModernMcp } from './modern/modern-mcp';
import { looksModern } from './modern/modern-request';
import type { RequestCaller } from './tool-results';

export const MCP_PATH = '/mcp';

/**
 * `/mcp`, the Streamable HTTP transport of the fleet's MCP server, outside `/api/v1` and outside Nest's
 * controllers: one route speaks a protocol of its own, in two eras negotiated per request (MCP 2026-07-28
 * basic/versioning, "dual-era"): a POST carrying the modern per-request `_meta` is served statelessly
 * (modern/); an `initialize` opens a legacy session (2025-03-26 to 2025-11-25: JSON-RPC over POST, server-sent
 * events over GET, DELETE to end it). Its refusals are JSON-RPC errors and its audit events are per tool call.
 * Every request presents a bearer token, checked each time (a revoked key stops at once); a session belongs
 * to the credential that opened it. No cookie is read: a browser cannot be made to call tools; and before all
 * else a browser page of an origin not allowed is refused (MCP's DNS rebinding protection, mcp-origins.ts).
 */
@Injectable()
export class McpEndpoint implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly auth: AuthService,
    private readonly sessions: McpSessions,
    private readonly depth: JsonDepthRefusals,
    private readonly origins: McpOrigins,
    private readonly modern: ModernMcp,
    private readonly tokens: McpAccessTokens,
    private readonly resource: ProtectedResource,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.route({
      method: ['GET', 'POST', 'DELETE'],
      url: MCP_PATH,
      handler: (request, reply) => this.handle(request, reply),
    });
  }

  private async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      const foreign = this.origins.refusalFor(request);
      if (foreign) throw foreign;
      const sessionId = request.headers['mcp-session-id'];
      const versionHeader = header(request.headers['mcp-protocol-version']);
      // MCP 2026-07-28: no GET stream and no sessions; a legacy session's GET and DELETE name theirs.
      if (request.method !== 'POST' && sessionId === undefined) {
        throw new ApiError(
          405,
          'method_not_allowed',
          'POST MCP requests here (a GET or DELETE names a legacy session)',
        );
      }
      const actor = await this.authenticate(request);
      const tooDeep = this.depth.refusalFor(request);
      if (tooDeep) throw tooDeep;
      const base = {
        actor,
        origin: originOf(request),
        consoleUrl: this.config.CONSOLE_URL ?? `${request.protocol}://${request.headers.host ?? 'localhost'}`,
      };
      if (request.method === 'POST' && sessionId === undefined && looksModern(request.body, versionHeader)) {
        await this.serveModern(request, reply, base);
        return;
      }
      const { session, opened } = await this.sessionFor(request, actor);
      reply.hijack(); // the transport writes the response (JSON or an event stream) itself
      const raw: IncomingMessage & { auth?: AuthInfo } = request.raw;
      const caller: RequestCaller = { ...base, protocolVersion: versionHeader ?? '2025-03-26' };
      raw.auth = {
        token: 'redacted', // tools need who, never the secret
        clientId: actor.oauthClientId ?? actor.apiKeyId ?? actor.operatorId,
        scopes: [actor.role],
        extra: { caller },
      };
      try {
        await session.handle(raw, reply.raw, request.body);
      } finally {
        if (opened) this.sessions.settled();
      }
    } catch (err) {
      await this.refuse(reply, err);
    }
  }

  /** A stateless request: one JSON answer; the client closing the request cancels it (MCP 2026-07-28). */
  private async serveModern(
    request: FastifyRequest,
    reply: FastifyReply,
    caller: Omit<RequestCaller, 'protocolVersion' | 'clientInfo'>,
  ): Promise<void> {
    const closed = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableEnded) closed.abort();
    };
    reply.raw.once('close', onClose);
    try {
      const answer = await this.modern.handle(request.body, request.headers, caller, closed.signal);
      if (closed.signal.aborted) return;
      if (answer.body === undefined) await reply.code(answer.status).send();
      else
        await reply
          .code(answer.status)
          .header('content-type', 'application/json')
          .send(JSON.stringify(answer.body));
    } finally {
      reply.raw.off('close', onClose);
    }
  }

  /** An API key or session token of the API's own, or (when configured) an OAuth access token issued for `/mcp`. */
  private async authenticate(request: FastifyRequest): Promise<Actor> {
    const bearer = bearerOf(request.headers.authorization);
    if (bearer !== undefined && this.tokens.enabled && this.tokens.looksLikeJwt(bearer)) {
      return this.tokens.actorOf(bearer);
    }
    const actor = await this.auth.authenticate(bearer, undefined);
    if (!actor) {
      throw new ApiError(
        401,
        'unauthenticated',
        this.tokens.enabled
          ? 'send Authorization: Bearer <API key or an access token issued for this resource>'
          : 'send Authorization: Bearer <API key>',
      );
    }
    return actor;
  }

  private async sessionFor(
    request: FastifyRequest,
    actor: Actor,
  ): Promise<{ session: McpSession; opened: boolean }> {
    const id = request.headers['mcp-session-id'];
    // The credential, not the person: two OAuth clients acting for one person are two agents.
    const owner = actor.sessionId ?? agentIdOf(actor);
    if (typeof id === 'string') {
      const session = this.sessions.find(id);
      // MCP: 404 tells the client to start a new session (this one expired, or lives in another process).
      if (!session)
        throw new ApiError(404, 'session_not_found', 'no such MCP session here: initialize again');
      if (session.owner !== owner) {
        throw new ApiError(403, 'session_of_another', 'this MCP session was opened with another credential');
      }
      return { session, opened: false };
    }
    if (request.method === 'POST' && isInitializeRequest(request.body)) {
      return { session: await this.sessions.open(owner), opened: true };
    }
    throw new ApiError(
      400,
      'no_session',
      'send Mcp-Session-Id, or start a session with an initialize request',
    );
  }

  /** A refusal before the transport runs, as JSON-RPC (what an MCP client reads), with the API's own code. */
  private async refuse(reply: FastifyReply, err: unknown): Promise<void> {
    const error = err instanceof ApiError ? err : undefined;
    if (!error) this.logger.error({ err }, 'MCP request failed');
    if (reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    const status = error?.status ?? 500;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: status === 404 ? -32001 : -32000,
        message: error
          ? `${error.code}: ${error.message}`
          : 'internal error; the details are in the server log',
      },
      id: null,
    });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (status === 401) {
      headers['www-authenticate'] = this.resource.challenge(
        error?.code === 'invalid_token' ? 'invalid_token' : undefined,
      );
    }
    if (status === 405) headers['allow'] = 'POST';
    if (error?.retryAfterS !== undefined || status === 429)
      headers['retry-after'] = String(error?.retryAfterS ?? 60);
    if (reply.sent) {
      reply.raw.writeHead(status, headers).end(body); // hijacked: Fastify no longer answers for us
      return;
    }
    await reply.code(status).headers(headers).send(body);
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
