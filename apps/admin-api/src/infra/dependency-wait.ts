/**
 * The longest a request waits on a dependency that does not answer (a Postgres connection, a queue's first
 * contact with Redis) before it is answered 503. A refused connection (the dependency down) fails at once; this
 * bounds one that never answers. Half a second gave false 503s to fresh connections on a machine at load 15.
 */
export const DEPENDENCY_WAIT_MS = 1_000;
