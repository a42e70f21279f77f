import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CredentialChanges } from './credential-changes-adapter';

// The routes that change keys, sessions or people (signing in through OpenID Connect may rename or re-role one).
const CHANGING = /^\/api\/v1\/(auth|api-keys|operators)(\/|$)/;
const OIDC_CALLBACK = '/api/v1/auth/oidc/callback';

export function changesCredentials(request: Pick<FastifyRequest, 'method' | 'url'>): boolean {
  const path = request.url.split('?', 1)[0]!;
  if (path === OIDC_CALLBACK) return true;
  return request.method !== 'GET' && request.method !== 'HEAD' && CHANGING.test(path);
}

/**
 * The replica that made a change forgets what it remembered before the change's answer leaves, so the person
 * who revoked a key or signed out sees it refused on their very next request; other replicas (and this one, for
 * changes made elsewhere) learn it from the database's notice.
 */
export function registerCredentialFlush(fastify: FastifyInstance, changes: CredentialChanges): void {
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    if (changesCredentials(request)) changes.clear();
    done(null, payload);
  });
}
