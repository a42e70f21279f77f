import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { answerSchema, answerSchemaAt, type ApiErrorBody } from '@fleet/api-contract';
import type { Logger } from '@fleet/telemetry';

/** What a drifted answer was: the route, its status and where it left its schema. */
export interface AnswerDrift {
  method: string;
  route: string;
  status: number;
  issues: { field: string; message: string }[];
}

/**
 * DESIGN §8: every JSON answer parsed with its route's schema from @fleet/api-contract (errors with the error
 * schema), and a mismatch answered as a 500 that names the drift, and logged. On in tests (VALIDATE_ANSWERS,
 * set by the test harnesses), so an answer that leaves its contract fails the test that produced it; off in
 * production, where it would only cost a parse per answer.
 */
export function registerAnswerValidation(fastify: FastifyInstance, prefix: string, logger: Logger): void {
  const base = `/${prefix.replace(/^\/+|\/+$/g, '')}`;
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const drift = checkAnswer(request, reply, payload, base);
    if (!drift) {
      done(null, payload);
      return;
    }
    logger.error({ drift }, 'an answer drifted from its contract (@fleet/api-contract)');
    const body: ApiErrorBody = {
      statusCode: 500,
      code: 'answer_drift',
      message: `${drift.method} ${drift.route} answered ${drift.status} off its contract: ${drift.issues
        .map((i) => `${i.field}: ${i.message}`)
        .join('; ')}`,
      issues: drift.issues,
    };
    void reply.code(500).header('content-type', 'application/json; charset=utf-8');
    done(null, JSON.stringify(body));
  });
}

function checkAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  base: string,
): AnswerDrift | undefined {
  const status = reply.statusCode;
  const url = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
  const underApi = url === base || url.startsWith(`${base}/`);
  const route = underApi ? url.slice(base.length) || '/' : url;
  // Outside /api/v1 only the routes the contract names (/healthz): /mcp speaks JSON-RPC, /docs is the document.
  if (!underApi && answerSchema(request.method, route) === undefined) return undefined;
  // Redirects carry no answer; streams (server-sent events, CSV) and bytes are not JSON answers.
  if ((status >= 300 && status < 400) || typeof payload !== 'string') return undefined;
  const drift = (field: string, message: string): AnswerDrift => ({
    method: request.method,
    route,
    status,
    issues: [{ field, message }],
  });
  const schema = answerSchemaAt(request.method, route, status);
  const json = String(reply.getHeader('content-type') ?? '').startsWith('application/json');
  if (schema === undefined) {
    // An unmatched URL is Nest's 404, judged above; a matched route without a schema is drift.
    return request.routeOptions.url
      ? drift('(route)', 'no answer schema in @fleet/api-contract ANSWERS')
      : undefined;
  }
  if (schema === null) {
    return json && payload.length > 0
      ? drift('(body)', 'a JSON body where the contract says none')
      : undefined;
  }
  // A route may answer other types too (the audit report's CSV): the contract is about its JSON.
  if (!json) return undefined;
  return parseAnswer(schema, payload, (issues) => ({ method: request.method, route, status, issues }));
}

function parseAnswer(
  schema: z.ZodType,
  payload: string,
  drift: (issues: AnswerDrift['issues']) => AnswerDrift,
): AnswerDrift | undefined {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return drift([{ field: '(body)', message: 'not parseable JSON' }]);
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  return drift(
    parsed.error.issues.map((i) => ({
      field: i.path.length > 0 ? i.path.join('.') : '(root)',
      message: i.message,
    })),
  );
}
