import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIT_EXPORT_FORMAT, publicKeyInfo, signAuditExport, type ExportLink } from '@fleet/audit-export';
import { evidenceHash, GENESIS_HASH, type ChainLink } from '@fleet/domain';
import { NOT_VERIFIED, runVerify, UNUSABLE, VERIFIED } from './verify-command';

const { privateKey } = generateKeyPairSync('ed25519');
const device = 'a0:85:e3:00:00:09';
const at = '2026-12-01T08:00:00.000Z';

function signedExport() {
  const stages: ChainLink[] = ['discovery', 'decision', 'parameters', 'response', 'effect', 'seal'];
  let prev = GENESIS_HASH;
  const links: ExportLink[] = stages.map((stage, i) => {
    const payload =
      stage === 'seal' ? { verdict: 'acknowledged', reason: 'said so', sealedAt: at } : { step: i };
    const link = { seq: String(i + 1), callId: 'call-1', stage, payload, prevHash: prev, createdAt: at };
    prev = evidenceHash(prev, { ...link, deviceId: device });
    return { ...link, hash: prev };
  });
  return signAuditExport(
    {
      format: AUDIT_EXPORT_FORMAT,
      generatedAt: at,
      period: { from: '2026-12-01T00:00:00.000Z', to: '2026-12-02T00:00:00.000Z' },
      evidence: {
        rows: true,
        chains: [
          { deviceId: device, fromSeq: '1', prevHash: GENESIS_HASH, head: { seq: '6', hash: prev }, links },
        ],
        calls: [
          {
            callId: 'call-1',
            deviceId: device,
            createdAt: at,
            verdict: 'acknowledged',
            reason: 'said so',
            sealedAt: at,
          },
        ],
      },
    },
    privateKey,
  );
}

function run(...args: string[]) {
  const lines: string[] = [];
  const code = runVerify(args, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  return { code, text: lines.join('\n') };
}

describe('audit:verify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-verify-'));
  const file = join(dir, 'export.json');
  const publicKey = publicKeyInfo(privateKey);
  writeFileSync(file, JSON.stringify(signedExport(), null, 2));

  it('verifies an export with the platform key given out of band, as base64 or as a PEM file', () => {
    expect(run(file, '--public-key', publicKey.publicKey)).toMatchObject({ code: VERIFIED });
    const pem = join(dir, 'platform.pem');
    writeFileSync(pem, publicKey.publicKeyPem);
    const { code, text } = run(file, '--public-key', pem);
    expect(code).toBe(VERIFIED);
    expect(text).toContain('recomputed: 1 chains, 6 links, 1 calls, 1 seals');
  });

  it('without a key, says that it checked against the key inside the file', () => {
    const { code, text } = run(file);
    expect(code).toBe(VERIFIED);
    expect(text).toContain(`the key inside the file (${publicKey.fingerprint})`);
  });

  it('fails after a one-byte change and names the first row that does not fit', () => {
    const changed = join(dir, 'changed.json');
    writeFileSync(changed, readFileSync(file, 'utf8').replace('"step": 3', '"step": 8'));
    const { code, text } = run(changed, '--public-key', publicKey.publicKey);
    expect(code).toBe(NOT_VERIFIED);
    expect(text).toContain('signature: INVALID');
    expect(text).toContain(
      `FIRST ROW THAT DOES NOT FIT: device ${device} seq 4 (response of call call-1): hash_mismatch`,
    );
  });

  it('refuses an export signed by another key', () => {
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(run(file, '--public-key', publicKeyInfo(other).publicKey).code).toBe(NOT_VERIFIED);
  });

  it('says plainly when a file cannot be checked at all', () => {
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"format": "something else"}');
    expect(run(junk)).toMatchObject({ code: UNUSABLE, text: expect.stringContaining('not an audit export') });
    expect(run()).toMatchObject({ code: UNUSABLE, text: expect.stringContaining('usage:') });
  });
});
