#!/usr/bin/env node
// `npm run audit:public-key`: prints the public half of the platform's audit signing key (AUDIT_SIGNING_KEY, or the
// development key in .local/dev-secrets.json), to hand to an auditor out of band; the same key as the evidence log's
// verifier key string, for a witness; and, where the orchestrator's seal key is at hand (SEAL_SIGNING_KEY, or the
// development key), the string to list in SEAL_PUBLIC_KEYS.
import { resolveAuditSigningKey, resolveSealSigningKey } from '@fleet/config';
import { privateKeyFromText, publicKeyInfo, sealSigner } from '@fleet/audit-export';
import { ed25519Signer } from '@fleet/transparency';
import { loadAuditToolsConfig } from './config';

try {
  const config = loadAuditToolsConfig();
  const key = privateKeyFromText(resolveAuditSigningKey(config.AUDIT_SIGNING_KEY, config.NODE_ENV));
  const info = publicKeyInfo(key);
  console.log(`fingerprint: ${info.fingerprint}`);
  console.log(`public key (base64): ${info.publicKey}`);
  console.log(info.publicKeyPem.trimEnd());
  console.log(
    `evidence log key (witness --log-key): ${ed25519Signer(config.CHECKPOINT_ORIGIN, key).verifier.text}`,
  );
  if (config.SEAL_SIGNING_KEY !== undefined || config.NODE_ENV !== 'production') {
    const seals = sealSigner(
      resolveSealSigningKey(config.SEAL_SIGNING_KEY, config.NODE_ENV),
      config.SEAL_KEY_NAME,
    );
    console.log(`seal key (SEAL_PUBLIC_KEYS): ${seals.verifierKey}`);
  }
} catch (err) {
  console.error(`audit:public-key failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
