import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Counter, type Registry } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { METRICS_REGISTRY } from '../infra/tokens';
import { ApiError } from './api-error';
import { depthField, depthIssue, type DepthIssue } from './json-depth';
import { unstorableTextIssues } from './unstorable-text';
import { describeIssues, type FieldIssue } from './zod-issues';

/**
 * What the API refuses of any request before a schema reads it, counted where it refuses: a JSON body nested
 * deeper than JSON_MAX_DEPTH, and a string (a value or a key, in the path, the query or the body, at any depth)
 * that Postgres cannot store. Once here for every route rather than in each schema: a call's `arguments` are free
 * JSON that no schema describes, and a text that reached a batched statement failed it for everyone in the batch.
 * Fastify has parsed the body by then (JSON.parse is iterative in V8; what overflowed the stack on 5,000 levels
 * was code walking the result). REST runs it first in the request policy, after authentication and inside the
 * audited part of the request, so a refusal is audited like any other; `/mcp` runs it on its JSON-RPC body.
 */
@Injectable()
export class InputRefusals {
  private readonly tooDeep: Counter;
  private readonly unstorable: Counter;

  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {
    this.tooDeep = new Counter({
      name: 'admin_api_json_depth_refusals_total',
      help: 'JSON bodies refused for nesting deeper than JSON_MAX_DEPTH, by route',
      labelNames: ['route'],
      registers: [registry],
    });
    this.unstorable = new Counter({
      name: 'admin_api_unstorable_text_refusals_total',
      help: 'requests refused for a NUL or a lone UTF-16 surrogate in a parameter or body field, by route',
      labelNames: ['route'],
      registers: [registry],
    });
  }

  /** The 400 for a request the API refuses whatever its route (counted), or undefined. */
  refusalFor(request: FastifyRequest): ApiError | undefined {
    const route = request.routeOptions.url ?? 'unmatched';
    // Firmware images and CSV imports arrive as bytes: nothing to nest, no text of ours.
    const body = Buffer.isBuffer(request.body) ? undefined : request.body;
    const deep = body === undefined ? undefined : depthIssue(body, this.config.JSON_MAX_DEPTH);
    if (deep) {
      this.tooDeep.inc({ route });
      return tooDeepError(deep);
    }
    const issues = [
      ...unstorableTextIssues(request.params, 'params'),
      ...unstorableTextIssues(request.query, 'query'),
      ...unstorableTextIssues(body, 'body'),
    ];
    if (issues.length === 0) return undefined;
    this.unstorable.inc({ route });
    return unstorableTextError(issues);
  }
}

export function tooDeepError(issue: DepthIssue): ApiError {
  const field = depthField(issue);
  const message = `nested deeper than ${issue.maxDepth} levels`;
  return new ApiError(400, 'too_deep', `${field}: ${message}`, [{ field, message }]);
}

function unstorableTextError(issues: FieldIssue[]): ApiError {
  return new ApiError(400, 'validation_failed', describeIssues(issues), issues);
}
