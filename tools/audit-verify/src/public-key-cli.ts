#!/usr/bin/env node
// `npm run audit:public-key`: prints the public half of the platform's audit signing key (AUDIT_SIGNING_KEY, or the
// development key in .local/dev-secrets.json), to hand to an auditor out of band.
import { resolveAuditSigningKey } from '@fleet/config';
import { privateKeyFromText, publicKeyInfo } from '@fleet/audit-export';
import { loadAuditToolsConfig } from './config';

try {
  const config = loadAuditToolsConfig();
  const info = publicKeyInfo(
    privateKeyFromText(resolveAuditSigningKey(config.AUDIT_SIGNING_KEY, config.NODE_ENV)),
  );
  console.log(`fingerprint: ${info.fingerprint}`);
  console.log(`public key (base64): ${info.publicKey}`);
  console.log(info.publicKeyPem.trimEnd());
} catch (err) {
  console.error(`audit:public-key failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
