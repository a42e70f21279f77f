import { randomBytes } from 'node:crypto';
import { sealSigner } from '@fleet/audit-export';

let key: { signing: string; verifier: string } | undefined;

/**
 * The run's seal key (DESIGN §6): production refuses to start the orchestrator without SEAL_SIGNING_KEY and the
 * admin API without SEAL_PUBLIC_KEYS listing it. One key per benchmark process, made on first use.
 */
export function benchSealKey(): { signing: string; verifier: string } {
  if (!key) {
    const signing = randomBytes(32).toString('base64');
    key = { signing, verifier: sealSigner(signing).verifierKey };
  }
  return key;
}
