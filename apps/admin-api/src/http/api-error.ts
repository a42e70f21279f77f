export interface FailedCheck {
  check: string;
  expected: string;
  found: string;
}

/** A refusal the client can act on: an HTTP status, a stable code for programs, and a message for people. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: { field: string; message: string }[],
    /** With a 429 (or 503): when the client may try again, sent as Retry-After. */
    readonly retryAfterS?: number,
    /** Which check refused the input and what it expected and found (an uploaded firmware image). */
    readonly failed?: FailedCheck,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notFound = (what: string, id: string): ApiError =>
  new ApiError(404, 'not_found', `no ${what} ${id}`);

export const conflict = (code: string, message: string): ApiError => new ApiError(409, code, message);

export const forbidden = (code: string, message: string): ApiError => new ApiError(403, code, message);

export const unprocessable = (code: string, message: string, field?: string): ApiError =>
  new ApiError(422, code, field ? `${field}: ${message}` : message, field ? [{ field, message }] : undefined);

/** A 422 that names the check that failed, with what it expected and found. */
export const failedCheck = (code: string, message: string, field: string, failed: FailedCheck): ApiError =>
  new ApiError(422, code, `${field}: ${message}`, [{ field, message }], undefined, failed);
