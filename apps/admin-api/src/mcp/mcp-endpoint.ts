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
import { McpOrigins } from './mcp-origins';
import { McpSessions } from './mcp-sessions';

export const MCP_PATH = '/mcp';

/**
 * `/mcp`, the Streamable HTTP transport of the fleet's MCP server, outside `/api/v1` and outside Nest's
 * controllers: one route speaks a protocol of its own (JSON-RPC over POST, server-sent events over GET,
 * DELETE to end a session), so its refusals are JSON-RPC errors and its audit events are per tool call.
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
      const actor = await this.authenticate(request);
      const tooDeep = this.depth.refusalFor(request);
      if (tooDeep) throw tooDeep;
      const { session, opened } = await this.sessionFor(request, actor);
      reply.hijack(); // the transport writes the response (JSON or an event stream) itself
      const raw: IncomingMessage & { auth?: AuthInfo } = request.raw;
      raw.auth = {
        token: 'redacted', // tools need who, never the secret
        clientId: actor.apiKeyId ?? actor.operatorId,
        scopes: [actor.role],
        extra: { caller: { actor, origin: originOf(request) } },
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

  private async authenticate(request: FastifyRequest): Promise<Actor> {
    const actor = await this.auth.authenticate(bearerOf(request.headers.authorization), undefined);
    if (!actor) throw new ApiError(401, 'unauthenticated', 'send Authorization: Bearer <API key>');
    return actor;
  }

  private async sessionFor(
    request: FastifyRequest,
    actor: Actor,
  ): Promise<{ session: McpSession; opened: boolean }> {
    const id = request.headers['mcp-session-id'];
    const owner = actor.apiKeyId ?? actor.sessionId ?? actor.operatorId;
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
    if (status === 401) headers['www-authenticate'] = 'Bearer realm="fleet-mcp"';
    if (error?.retryAfterS !== undefined || status === 429)
      headers['retry-after'] = String(error?.retryAfterS ?? 60);
    if (reply.sent) {
      reply.raw.writeHead(status, headers).end(body); // hijacked: Fastify no longer answers for us
      return;
    }
    await reply.code(status).headers(headers).send(body);
  }
}
