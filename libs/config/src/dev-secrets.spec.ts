import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAuditSigningKey } from './audit-signing-env';
import { loadOrCreateAuditSigningKey, loadOrCreateDevSecrets, SERVICE_IDENTITIES } from './dev-secrets';

describe('development secrets', () => {
  it('are created once and then kept, so devices keep their credentials across restarts', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'secrets-')), '.local', 'dev-secrets.json');
    const first = loadOrCreateDevSecrets(path);
    const second = loadOrCreateDevSecrets(path);
    expect(second).toEqual(first);
    expect(Object.keys(first.services).sort()).toEqual([...SERVICE_IDENTITIES].sort());
    expect((JSON.parse(readFileSync(path, 'utf8')) as { deviceSigningKey: string }).deviceSigningKey).toBe(
      first.deviceSigningKey,
    );
  });

  it('add the audit signing key once to a file written before it existed, keeping every other secret', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'secrets-')), '.local');
    const path = join(dir, 'dev-secrets.json');
    const old = { deviceSigningKey: 'k'.repeat(32), services: { orchestrator: 's'.repeat(24) } };
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, JSON.stringify(old));
    const key = loadOrCreateAuditSigningKey(path);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(loadOrCreateAuditSigningKey(path)).toBe(key);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ ...old, auditSigningKey: key });
  });

  it('are never used for the audit signing key in production', () => {
    expect(() => resolveAuditSigningKey(undefined, 'production')).toThrow(
      /AUDIT_SIGNING_KEY: required in production/,
    );
    expect(resolveAuditSigningKey('configured', 'production')).toBe('configured');
  });
});
