import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ApiErrorBody } from '@fleet/api-contract';
import type { Logger } from '@fleet/telemetry';
import { ApiError } from './api-error';
import { poolBusy, unavailableDependency } from './dependency-errors';

/** Seconds a client is told to wait before trying again while a dependency is down. */
export const RETRY_AFTER_S = 5;

/** Seconds a client is told to wait when every database connection of the API was busy. */
export const BUSY_RETRY_AFTER_S = 1;

/** What a 429 without a better estimate tells the client to wait. */
const DEFAULT_RETRY_AFTER_S = 60;

/** What every refusal looks like on the wire: the contract's error schema (also in the OpenAPI document). */
export type ErrorBody = ApiErrorBody;

/**
 * One error shape for the whole API: our own refusals, Nest's HTTP exceptions, Fastify's parser errors
 * (bad JSON, body too large, wrong content type) and, as a 500 that says nothing internal, anything else.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const busy = poolBusy(thrown);
    if (busy) this.logger.warn({ err: busy }, 'refused: every database connection busy');
    const exception = busy
      ? new ApiError(
          503,
          'busy',
          `every database connection of this API stayed busy; try again in ${BUSY_RETRY_AFTER_S} s`,
          undefined,
          BUSY_RETRY_AFTER_S,
        )
      : thrown;
    const body = this.toBody(exception);
    if (body.dependency) this.logger.warn({ err: exception, dependency: body.dependency }, body.message);
    else if (body.statusCode >= 500 && !busy) this.logger.error({ err: exception }, 'request failed');
    if (reply.sent) return;
    // RFC 9110 §10.2.3: every 429 and 503 says when to come back (a client that guesses retries at once, and
    // again).
    const retryAfter = exception instanceof ApiError ? exception.retryAfterS : undefined;
    if (body.statusCode === 429 || body.statusCode === 503 || retryAfter !== undefined) {
      const fallback = body.statusCode === 503 ? RETRY_AFTER_S : DEFAULT_RETRY_AFTER_S;
      void reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter ?? fallback))));
    }
    void reply.code(body.statusCode).header('content-type', 'application/json').send(body);
  }

  private toBody(exception: unknown): ErrorBody {
    const dependency = unavailableDependency(exception);
    if (dependency) {
      return {
        statusCode: 503,
        code: 'dependency_unavailable',
        message: `${dependency} is unreachable; nothing was lost, try again in ${RETRY_AFTER_S} s`,
        dependency,
      };
    }
    if (exception instanceof ApiError) {
      return {
        statusCode: exception.status,
        code: exception.code,
        message: exception.message,
        ...(exception.issues ? { issues: exception.issues } : {}),
        ...(exception.failed ? { failed: exception.failed } : {}),
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return { statusCode: status, code: codeFor(status), message: exception.message };
    }
    const fastifyError = exception as { statusCode?: number; message?: string };
    if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) {
      const status = fastifyError.statusCode;
      return { statusCode: status, code: codeFor(status), message: fastifyError.message ?? 'bad request' };
    }
    return { statusCode: 500, code: 'internal_error', message: 'internal error; the details are in the log' };
  }
}

function codeFor(status: number): string {
  switch (status) {
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_requests';
    default:
      return status >= 500 ? 'internal_error' : 'bad_request';
  }
}
