import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Counter, type Registry } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { METRICS_REGISTRY } from '../infra/tokens';
import { ApiError } from './api-error';
import { depthField, depthIssue, type DepthIssue } from './json-depth';

/**
 * The depth limit on every JSON body (REST and /mcp), counted where it refuses. Fastify has parsed the body by
 * then (JSON.parse is iterative in V8; what overflowed the stack on 5,000 levels was code walking the result):
 * the check runs first (RequestPolicyInterceptor), inside the audited part of the request, so the refusal is
 * audited like any other.
 */
@Injectable()
export class JsonDepthRefusals {
  private readonly refused: Counter;

  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {
    this.refused = new Counter({
      name: 'admin_api_json_depth_refusals_total',
      help: 'JSON bodies refused for nesting deeper than JSON_MAX_DEPTH, by route',
      labelNames: ['route'],
      registers: [registry],
    });
  }

  /** The 400 for a request whose body nests too deep (counted), or undefined. */
  refusalFor(request: FastifyRequest): ApiError | undefined {
    // Firmware images arrive as bytes: nothing to nest.
    if (request.body === undefined || Buffer.isBuffer(request.body)) return undefined;
    const issue = depthIssue(request.body, this.config.JSON_MAX_DEPTH);
    if (!issue) return undefined;
    this.refused.inc({ route: request.routeOptions.url ?? 'unmatched' });
    return tooDeepError(issue);
  }
}

export function tooDeepError(issue: DepthIssue): ApiError {
  const field = depthField(issue);
  const message = `nested deeper than ${issue.maxDepth} levels`;
  return new ApiError(400, 'too_deep', `${field}: ${message}`, [{ field, message }]);
}
