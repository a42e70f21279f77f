import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AUDIT_EXPORT_FORMAT,
  publicKeyInfo,
  signAuditExport,
  type ExportLink,
  type UnsignedAuditExport,
} from '@fleet/audit-export';
import { sealSigner, type ExportTransparency } from '@fleet/audit-export';
import { evidenceHash, GENESIS_HASH, type ChainLink } from '@fleet/domain';
import { committedExport } from '@fleet/testing';
import { NO_TRUSTED_KEY, NOT_VERIFIED, runVerify, UNUSABLE, VERIFIED } from './verify-command';

const { privateKey } = generateKeyPairSync('ed25519');
const orchestrator = sealSigner(generateKeyPairSync('ed25519').privateKey);
const forger = generateKeyPairSync('ed25519').privateKey;
const devices = ['a0:85:e3:00:00:09', 'a0:85:e3:00:00:0a'];
const at = '2026-12-01T08:00:00.000Z';

function chainOf(device: string, callId: string, verdict: string) {
  const stages: ChainLink[] = ['discovery', 'decision', 'parameters', 'response', 'effect', 'seal'];
  let prev = GENESIS_HASH;
  const links: ExportLink[] = stages.map((stage, i) => {
    const payload = stage === 'seal' ? { verdict, reason: 'said so', sealedAt: at } : { step: i };
    const link = { seq: String(i + 1), callId, stage, payload, prevHash: prev, createdAt: at };
    prev = evidenceHash(prev, { ...link, deviceId: device });
    return { ...link, hash: prev };
  });
  return {
    chain: { deviceId: device, fromSeq: '1', prevHash: GENESIS_HASH, head: { seq: '6', hash: prev }, links },
    call: { callId, deviceId: device, createdAt: at, verdict, reason: 'said so', sealedAt: at },
  };
}

/** Two devices' chains: one call acknowledged, one that failed on the device. */
function exportBody(): UnsignedAuditExport {
  const parts = [
    chainOf(devices[0]!, 'call-1', 'acknowledged'),
    chainOf(devices[1]!, 'call-2', 'device_error'),
  ];
  return {
    format: AUDIT_EXPORT_FORMAT,
    generatedAt: at,
    period: { from: '2026-12-01T00:00:00.000Z', to: '2026-12-02T00:00:00.000Z' },
    calls: { total: 2 },
    evidence: { rows: true, chains: parts.map((p) => p.chain), calls: parts.map((p) => p.call) },
  };
}

function run(...args: string[]) {
  const lines: string[] = [];
  const code = runVerify(args, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  return { code, text: lines.join('\n') };
}

describe('audit:verify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-verify-'));
  const file = join(dir, 'export.json');
  const platform = publicKeyInfo(privateKey);
  const committed = (body = exportBody(), opts: Parameters<typeof committedExport>[3] = {}) =>
    committedExport(body, privateKey, orchestrator, opts);
  writeFileSync(file, JSON.stringify(signAuditExport(committed(), privateKey), null, 2));
  // What GET /api/v1/reports/audit/signing-key answers, and what `npm run audit:public-key` prints.
  const published = join(dir, 'signing-key.json');
  writeFileSync(published, JSON.stringify(platform));
  const printed = join(dir, 'platform-key.txt');
  writeFileSync(
    printed,
    `fingerprint: ${platform.fingerprint}\npublic key (base64): ${platform.publicKey}\n${platform.publicKeyPem}`,
  );

  /** One device's chain and call taken out, the report's total changed, re-signed with the forger's key. */
  const forged = join(dir, 'forged.json');
  const body = exportBody();
  body.evidence.chains.pop();
  body.evidence.calls!.pop();
  body['calls'] = { total: 1 };
  writeFileSync(forged, JSON.stringify(signAuditExport(committed(body), forger), null, 2));

  it('verifies a good export with the platform key pinned: base64, PEM file, published key file, printed key', () => {
    expect(run(file, '--public-key', platform.publicKey)).toMatchObject({ code: VERIFIED });
    const pem = join(dir, 'platform.pem');
    writeFileSync(pem, platform.publicKeyPem);
    for (const key of [pem, published, printed]) {
      const { code, text } = run(file, '--public-key', key);
      expect(code).toBe(VERIFIED);
      expect(text).toContain('recomputed: 2 chains, 12 links, 2 calls, 2 seals');
      expect(text).toContain(
        'checkpoint: voice-fleet.test/evidence, tree of 5 (extends the checkpoint of 3); 2 seals signed by a listed orchestrator key, 2 shown in the tree',
      );
      expect(text).toContain('VERIFIED: the signature holds under a trusted key and every row fits');
    }
  });

  it("verifies a good export with the platform key's fingerprint pinned", () => {
    const { code, text } = run(file, '--fingerprint', platform.fingerprint);
    expect(code).toBe(VERIFIED);
    expect(text).toContain('whose fingerprint is the one given');
  });

  it('without a pinned key, checks everything but never says VERIFIED nor exits 0', () => {
    const { code, text } = run(file);
    expect(code).toBe(NO_TRUSTED_KEY);
    expect(text).toContain('recomputed: 2 chains, 12 links, 2 calls, 2 seals');
    expect(text).toContain('not verified: no trusted key given');
    expect(text).not.toContain('VERIFIED');
  });

  it('refuses a forgery re-signed with the key it carries: without a key, with the platform key, with its fingerprint', () => {
    const unpinned = run(forged);
    expect(unpinned.code).toBe(NO_TRUSTED_KEY);
    expect(unpinned.text).not.toContain('VERIFIED');

    const pinned = run(forged, '--public-key', published);
    expect(pinned.code).toBe(NOT_VERIFIED);
    expect(pinned.text).toContain('signature: INVALID');
    expect(pinned.text).toContain(`note: the file names another key (${publicKeyInfo(forger).fingerprint})`);
    expect(pinned.text).not.toContain('VERIFIED');

    const byFingerprint = run(forged, '--fingerprint', platform.fingerprint);
    expect(byFingerprint.code).toBe(NOT_VERIFIED);
    expect(byFingerprint.text).toContain('NOT the key whose fingerprint was given');
    expect(byFingerprint.text).not.toContain('VERIFIED');
  });

  it('refuses a row that names a field twice, even with the platform key and a signature that holds for JSON.parse', () => {
    const text = readFileSync(file, 'utf8');
    // JSON.parse keeps the last value (the signed one); a reader keeping the first sees "verified".
    const row = text.lastIndexOf('"verdict": "device_error"'); // the call row, after the chains
    const twice = `${text.slice(0, row)}"verdict": "verified", ${text.slice(row)}`;
    const duplicate = join(dir, 'duplicate.json');
    writeFileSync(duplicate, twice);
    const { code, text: said } = run(duplicate, '--public-key', published);
    expect(code).toBe(NOT_VERIFIED);
    expect(said).toContain('the name "verdict" appears twice in one object (at evidence.calls[1])');
    expect(said).not.toContain('VERIFIED');
  });

  it('fails after a one-byte change and names the first row that does not fit', () => {
    const changed = join(dir, 'changed.json');
    writeFileSync(changed, readFileSync(file, 'utf8').replace('"step": 3', '"step": 8'));
    const { code, text } = run(changed, '--public-key', platform.publicKey);
    expect(code).toBe(NOT_VERIFIED);
    expect(text).toContain('signature: INVALID');
    expect(text).toContain(
      `FIRST ROW THAT DOES NOT FIT: device ${devices[0]} seq 4 (response of call call-1): hash_mismatch`,
    );
  });

  it('names a call history forged with a correct hash chain: its seal is signed by no listed orchestrator key', () => {
    // What a holder of fleet_app can write: rows and a seal chained consistently, but no orchestrator key to sign it.
    const doc = signAuditExport(committed(exportBody(), { unsigned: ['call-2'] }), privateKey);
    const path = join(dir, 'forged-history.json');
    writeFileSync(path, JSON.stringify(doc, null, 2));
    const { code, text } = run(path, '--public-key', published);
    expect(code).toBe(NOT_VERIFIED);
    expect(text).toContain('signature: valid');
    expect(text).toContain(
      `FIRST ROW THAT DOES NOT FIT: device ${devices[1]} seq 6 (seal of call call-2): seal_unsigned: the seal carries no signature`,
    );
    expect(text).toContain('(2 problems in all)'); // and it is not in the checkpointed log either
  });

  it('keeps seals of a rotated-away orchestrator key verified while the deployment still lists it', () => {
    const old = sealSigner(generateKeyPairSync('ed25519').privateKey);
    const keyOf = (callId: string) => (callId === 'call-1' ? old : undefined);
    const rotated = join(dir, 'rotated.json');
    const listed = [orchestrator.verifierKey, old.verifierKey];
    writeFileSync(
      rotated,
      JSON.stringify(signAuditExport(committed(exportBody(), { keyOf, listed }), privateKey)),
    );
    expect(run(rotated, '--public-key', published)).toMatchObject({ code: VERIFIED });
    // Dropped from the list, the old key's seal is named.
    const dropped = join(dir, 'dropped.json');
    writeFileSync(dropped, JSON.stringify(signAuditExport(committed(exportBody(), { keyOf }), privateKey)));
    const { code, text } = run(dropped, '--public-key', published);
    expect(code).toBe(NOT_VERIFIED);
    expect(text).toContain(`(seal of call call-1): seal_unknown_key: signed by key ${old.keyId}`);
  });

  it('names a checkpoint the trusted key did not sign, and an inclusion proof that does not lead to its root', () => {
    const doc = signAuditExport(committed(), privateKey);
    const t = doc.transparency!;
    const other = committedExport(exportBody(), forger, orchestrator).transparency as ExportTransparency;
    const swapped = join(dir, 'swapped-checkpoint.json');
    writeFileSync(
      swapped,
      JSON.stringify(
        signAuditExport({ ...doc, transparency: { ...t, checkpoint: other.checkpoint } }, privateKey),
      ),
    );
    expect(run(swapped, '--public-key', published).text).toContain(
      'FIRST ROW THAT DOES NOT FIT: checkpoint_invalid: its checkpoint does not hold: no signature of a known key',
    );
    const wrongProof = { ...t, inclusions: t.inclusions.map((i) => ({ ...i, leafIndex: i.leafIndex + 1 })) };
    const moved = join(dir, 'moved-leaf.json');
    writeFileSync(moved, JSON.stringify(signAuditExport({ ...doc, transparency: wrongProof }, privateKey)));
    expect(run(moved, '--public-key', published).text).toContain(
      `FIRST ROW THAT DOES NOT FIT: device ${devices[0]} seq 6 (seal of call call-1): inclusion_invalid`,
    );
  });

  it('refuses an export signed by another key', () => {
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(run(file, '--public-key', publicKeyInfo(other).publicKey).code).toBe(NOT_VERIFIED);
  });

  it('refuses a key file whose fingerprint is not that of its key, and a malformed fingerprint', () => {
    const lying = join(dir, 'lying-key.json');
    writeFileSync(lying, JSON.stringify({ ...platform, fingerprint: publicKeyInfo(forger).fingerprint }));
    expect(run(file, '--public-key', lying)).toMatchObject({
      code: UNUSABLE,
      text: expect.stringContaining('is not that of its key'),
    });
    expect(run(file, '--fingerprint', 'sha256:abc')).toMatchObject({
      code: UNUSABLE,
      text: expect.stringContaining('sha256:<64 hex digits>'),
    });
  });

  it('says plainly when a file cannot be checked at all', () => {
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"format": "something else"}');
    expect(run(junk)).toMatchObject({ code: UNUSABLE, text: expect.stringContaining('not an audit export') });
    const notUtf8 = join(dir, 'latin1.json');
    writeFileSync(notUtf8, Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    expect(run(notUtf8)).toMatchObject({ code: UNUSABLE, text: expect.stringContaining('not UTF-8') });
    expect(run()).toMatchObject({ code: UNUSABLE, text: expect.stringContaining('usage:') });
  });
});
