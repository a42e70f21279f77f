import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Counter, type Registry } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ApiError } from '../http/api-error';
import { METRICS_REGISTRY } from '../infra/tokens';
import { originAllowed, originOfUrl, parseOriginPattern, type OriginPattern } from './origin-policy';

/**
 * The `Origin` check of `/mcp`, before anything else (authentication included): MCP_ALLOWED_ORIGINS, and the
 * console's own origin where the configuration names it (where OIDC sends the browser back to). Counted.
 */
@Injectable()
export class McpOrigins {
  private readonly allowed: OriginPattern[];
  private readonly refused: Counter;

  constructor(
    @Inject(ADMIN_API_CONFIG) config: AdminApiConfig,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    const console = [config.OIDC_SUCCESS_REDIRECT, config.OIDC_REDIRECT_URL].flatMap((url) => {
      const origin = url === undefined ? undefined : originOfUrl(url);
      return origin ? [origin] : [];
    });
    this.allowed = [...config.MCP_ALLOWED_ORIGINS.map(parseOriginPattern), ...console];
    this.refused = new Counter({
      name: 'admin_api_mcp_origin_refusals_total',
      help: '/mcp requests refused because their Origin is not among MCP_ALLOWED_ORIGINS',
      registers: [registry],
    });
  }

  /** The 403 for a request from a page of a foreign origin (counted), or undefined (none given, or allowed). */
  refusalFor(request: FastifyRequest): ApiError | undefined {
    const origin = request.headers.origin;
    if (origin === undefined || originAllowed(origin, this.allowed)) return undefined;
    this.refused.inc();
    return new ApiError(
      403,
      'origin_not_allowed',
      'this Origin may not use /mcp (MCP_ALLOWED_ORIGINS lists those that may)',
    );
  }
}
