/**
 * The longest a request waits on a dependency that does not answer (a Postgres connection, a queue's first
 * contact with Redis) before it is answered 503: every route answers within a second while one is down.
 */
export const DEPENDENCY_WAIT_MS = 500;
