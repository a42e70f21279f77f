import { randomBytes } from 'node:crypto';
import { sealSigner } from '@fleet/audit-export';

// Production refuses to start without the orchestrator's seal key and the list of keys the admin API accepts
// (DESIGN §6); a benchmark run makes its own pair, the same for every service it starts.
const signingKey = randomBytes(32).toString('base64');

export const BENCH_SEAL_KEYS = {
  /** The orchestrator's SEAL_SIGNING_KEY. */
  signingKey,
  /** SEAL_PUBLIC_KEYS for the admin API: the signing key's verifier key string. */
  publicKeys: sealSigner(signingKey).verifierKey,
};
