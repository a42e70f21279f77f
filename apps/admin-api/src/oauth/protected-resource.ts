import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';

/** RFC 9728's two places for `/mcp`'s metadata: the root one, and the one suffixed with the resource's path. */
export const PROTECTED_RESOURCE_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
];

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for `/mcp`, when it takes OAuth tokens: which authorization
 * server issues them and how to present them. An MCP client reads it from the 401's `WWW-Authenticate`
 * `resource_metadata`. Without OAuth configured nothing is served here (the API's JSON 404 for /.well-known).
 */
@Injectable()
export class ProtectedResource implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  onModuleInit(): void {
    const resource = this.config.MCP_RESOURCE_URL;
    const issuer = this.config.MCP_OAUTH_ISSUER;
    if (!resource || !issuer) return;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const metadata = {
      resource,
      authorization_servers: [issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'voice-fleet MCP',
    };
    for (const url of PROTECTED_RESOURCE_PATHS) {
      fastify.get(url, (_request, reply) => reply.header('cache-control', 'max-age=300').send(metadata));
    }
  }

  /** The `WWW-Authenticate` of a 401 from `/mcp` (RFC 9728 §5.1), naming the error where a token was refused. */
  challenge(error?: string): string {
    const parts = ['Bearer realm="fleet-mcp"'];
    if (this.config.MCP_RESOURCE_URL) {
      const origin = new URL(this.config.MCP_RESOURCE_URL).origin;
      parts.push(`resource_metadata="${origin}${PROTECTED_RESOURCE_PATHS[1]}"`);
    }
    if (error) parts.push(`error="${error}"`);
    return parts.join(', ');
  }
}
