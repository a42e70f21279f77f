import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAuditSigningKey } from './audit-signing-env';
import { loadOrCreateAuditSigningKey, loadOrCreateDevSecrets, SERVICE_IDENTITIES } from './dev-secrets';

const freshPath = () => join(mkdtempSync(join(tmpdir(), 'secrets-')), '.local', 'dev-secrets.json');

describe('development secrets', () => {
  it('are created once and then kept, so devices keep their credentials across restarts', () => {
    const path = freshPath();
    const first = loadOrCreateDevSecrets(path);
    const second = loadOrCreateDevSecrets(path);
    expect(second).toEqual(first);
    expect(Object.keys(first.services).sort()).toEqual([...SERVICE_IDENTITIES].sort());
    expect((JSON.parse(readFileSync(path, 'utf8')) as { deviceSigningKey: string }).deviceSigningKey).toBe(
      first.deviceSigningKey,
    );
    expect(Buffer.from(first.efuseWrappingKey, 'base64url')).toHaveLength(32);
  });

  it('gain a secret added later without losing the ones a machine already has', () => {
    const path = freshPath();
    mkdirSync(join(path, '..'), { recursive: true });
    const old = { deviceSigningKey: 'k'.repeat(43), services: { orchestrator: 's'.repeat(32) } };
    writeFileSync(path, JSON.stringify(old));
    const upgraded = loadOrCreateDevSecrets(path);
    expect(upgraded).toMatchObject(old);
    expect(loadOrCreateDevSecrets(path).efuseWrappingKey).toBe(upgraded.efuseWrappingKey);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(upgraded);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('take over a lock left behind by a process that died while adding a secret', () => {
    const path = freshPath();
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, JSON.stringify({ deviceSigningKey: 'k'.repeat(43), services: {} }));
    mkdirSync(`${path}.lock`);
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, longAgo, longAgo);
    expect(loadOrCreateDevSecrets(path).efuseWrappingKey).toEqual(expect.any(String));
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
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ ...old, auditSigningKey: key });
  });

  it('are never used for the audit signing key in production', () => {
    expect(() => resolveAuditSigningKey(undefined, 'production')).toThrow(
      /AUDIT_SIGNING_KEY: required in production/,
    );
    expect(resolveAuditSigningKey('configured', 'production')).toBe('configured');
  });
});
