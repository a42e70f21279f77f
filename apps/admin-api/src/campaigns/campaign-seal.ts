import { createHash } from 'node:crypto';
import { canonicalJson } from '@fleet/domain';

/**
 * The SHA-256 of a started campaign's sealed definition, as the orchestrator cites it in each call's reason
 * (libs/domain canonicalJson, so it survives the jsonb round trip); null before it started.
 */
export function definitionSha256(c: { definition: unknown }): string | null {
  if (c.definition === null || c.definition === undefined) return null;
  return createHash('sha256').update(canonicalJson(c.definition)).digest('hex');
}
