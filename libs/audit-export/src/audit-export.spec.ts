import { generateKeyPairSync } from 'node:crypto';
import {
  AUDIT_EXPORT_FORMAT,
  signAuditExport,
  type ExportLink,
  type UnsignedAuditExport,
} from './audit-export';
import { UnreadableExportError, verifyAuditExport } from './audit-export-verify';
import { privateKeyFromText, publicKeyFromText, publicKeyInfo } from './audit-signing-key';
import { fingerprintAnchor, keyAnchor } from './trusted-key';
import { evidenceHash, GENESIS_HASH, type ChainLink } from '@fleet/domain';
import { ed25519Signer } from '@fleet/transparency';
import { EvidenceLog } from './evidence-log';
import { checkpointNote, transparencyFor } from './export-transparency';
import { sealSigner } from './seal-signature';

const { privateKey } = generateKeyPairSync('ed25519');
const orchestrator = sealSigner(generateKeyPairSync('ed25519').privateKey);
const sealedAt = '2026-12-01T10:00:00.500Z';

function links(deviceId: string, callId: string): ExportLink[] {
  const stages: ChainLink[] = ['discovery', 'decision', 'parameters', 'response', 'effect', 'seal'];
  let prev = GENESIS_HASH;
  return stages.map((stage, i) => {
    const payload = stage === 'seal' ? { verdict: 'verified', reason: 'read back 40', sealedAt } : { n: i };
    const link = { seq: String(i + 1), callId, stage, payload, prevHash: prev, createdAt: sealedAt };
    const hash = evidenceHash(prev, { ...link, deviceId });
    prev = hash;
    if (stage !== 'seal') return { ...link, hash };
    const signature = orchestrator.sign(hash);
    return { ...link, hash, sealKeyId: signature.keyId, sealSignature: signature.signature };
  });
}

/** The export's seal committed to a one-leaf evidence log, checkpointed with the platform key (DESIGN §6). */
function committed(body: UnsignedAuditExport): UnsignedAuditExport {
  const chain = body.evidence.chains[0]!;
  const seal = chain.links!.at(-1)!;
  const log = new EvidenceLog([{ deviceId: chain.deviceId, seq: seal.seq, hash: seal.hash }]);
  const note = checkpointNote(
    log,
    'voice-fleet.test/evidence',
    ed25519Signer('voice-fleet.test/evidence', privateKey),
  );
  const transparency = transparencyFor(log, { note, size: 1 }, null, body.evidence.chains, [
    orchestrator.verifierKey,
  ]);
  return { ...body, transparency };
}

function exportOf(rows = true): UnsignedAuditExport {
  const chainLinks = links('a0:85:e3:00:00:01', 'c1');
  const last = chainLinks[chainLinks.length - 1]!;
  const body: UnsignedAuditExport = {
    format: AUDIT_EXPORT_FORMAT,
    generatedAt: '2026-12-02T00:00:00.000Z',
    period: { from: '2026-12-01T00:00:00.000Z', to: '2026-12-02T00:00:00.000Z' },
    calls: { total: 1 },
    evidence: {
      rows,
      chains: [
        {
          deviceId: 'a0:85:e3:00:00:01',
          fromSeq: '1',
          prevHash: GENESIS_HASH,
          head: { seq: last.seq, hash: last.hash },
          ...(rows ? { links: chainLinks } : {}),
        },
      ],
      ...(rows
        ? {
            calls: [
              {
                callId: 'c1',
                deviceId: 'a0:85:e3:00:00:01',
                createdAt: '2026-12-01T09:59:59.000Z',
                verdict: 'verified',
                reason: 'read back 40',
                sealedAt,
              },
            ],
          }
        : {}),
    },
  };
  return rows ? committed(body) : body;
}

/** The signed export as a file holds it, changed by `edit` in its text. */
const asFile = (doc: unknown, edit: (text: string) => string = (t) => t): unknown =>
  JSON.parse(edit(JSON.stringify(doc, null, 2)));

describe('an audit export', () => {
  it('verifies offline with the platform key, every chain and seal recomputed', () => {
    const signed = signAuditExport(exportOf(), privateKey);
    const result = verifyAuditExport(asFile(signed), publicKeyFromText(publicKeyInfo(privateKey).publicKey));
    expect(result).toMatchObject({
      ok: true,
      signature: 'valid',
      rows: true,
      key: { source: 'given' },
      checked: { chains: 1, links: 6, calls: 1, seals: 1 },
      problems: [],
    });
  });

  it('is never verified by the key inside the file alone, and is by the fingerprint of that key', () => {
    const signed = asFile(signAuditExport(exportOf(), privateKey));
    expect(verifyAuditExport(signed)).toMatchObject({
      ok: false,
      trusted: false,
      signature: 'valid',
      key: { source: 'embedded' },
      problems: [],
    });
    const fingerprint = fingerprintAnchor(publicKeyInfo(privateKey).fingerprint);
    expect(verifyAuditExport(signed, fingerprint)).toMatchObject({ ok: true, trusted: true });
    const other = fingerprintAnchor(publicKeyInfo(generateKeyPairSync('ed25519').privateKey).fingerprint);
    expect(verifyAuditExport(signed, other)).toMatchObject({ ok: false, trusted: false });
  });

  it('fails after a one-byte change and names the row that no longer fits', () => {
    const signed = signAuditExport(exportOf(), privateKey);
    const changed = asFile(signed, (text) => text.replace('"n": 3', '"n": 4'));
    const result = verifyAuditExport(changed);
    expect(result.ok).toBe(false);
    expect(result.signature).toBe('invalid');
    expect(result.problems[0]).toMatchObject({
      deviceId: 'a0:85:e3:00:00:01',
      seq: '4',
      callId: 'c1',
      stage: 'response',
      problem: 'hash_mismatch',
    });
  });

  it('names a call row whose verdict no longer says what its seal says', () => {
    const signed = signAuditExport(exportOf(), privateKey);
    const changed = asFile(signed) as typeof signed;
    changed.evidence.calls![0]!.verdict = 'rejected';
    const result = verifyAuditExport(changed);
    expect(result.problems).toEqual([
      expect.objectContaining({ callId: 'c1', field: 'verdict', problem: 'seal_mismatch' }),
    ]);
  });

  it('is refused by a key other than the one that signed it', () => {
    const signed = signAuditExport(exportOf(), privateKey);
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(verifyAuditExport(asFile(signed), other)).toMatchObject({ ok: false, signature: 'invalid' });
  });

  it('without its rows, checks the signature but does not count as verified', () => {
    const signed = signAuditExport(exportOf(false), privateKey);
    expect(verifyAuditExport(asFile(signed))).toMatchObject({ ok: false, signature: 'valid', rows: false });
  });

  it('refuses a file that is not an export, and one with a field added after signing', () => {
    expect(() => verifyAuditExport({ hello: 1 })).toThrow(UnreadableExportError);
    const signed = signAuditExport(exportOf(), privateKey);
    expect(verifyAuditExport({ ...signed, note: 'added later' })).toMatchObject({
      ok: false,
      signature: 'invalid',
    });
  });
});

describe('the audit signing key', () => {
  it('reads as PEM or as the base64 of its 32 bytes, and publishes one fingerprint', () => {
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const raw = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32).toString('base64');
    expect(publicKeyInfo(privateKeyFromText(pem)).fingerprint).toBe(publicKeyInfo(privateKey).fingerprint);
    expect(publicKeyInfo(privateKeyFromText(raw)).fingerprint).toBe(publicKeyInfo(privateKey).fingerprint);
    const info = publicKeyInfo(privateKey);
    expect(publicKeyInfo(publicKeyFromText(info.publicKeyPem)).publicKey).toBe(info.publicKey);
  });

  it('is pinned from what the platform publishes: the signing-key JSON, the printed key, PEM or base64', () => {
    const info = publicKeyInfo(privateKey);
    const printed = `fingerprint: ${info.fingerprint}\npublic key (base64): ${info.publicKey}\n${info.publicKeyPem}`;
    for (const text of [JSON.stringify(info), printed, info.publicKeyPem, info.publicKey]) {
      const anchor = keyAnchor(text);
      expect(anchor.kind === 'key' && publicKeyInfo(anchor.key).fingerprint).toBe(info.fingerprint);
    }
    const otherPem = publicKeyInfo(generateKeyPairSync('ed25519').privateKey).publicKeyPem;
    expect(() => keyAnchor(JSON.stringify({ ...info, publicKeyPem: otherPem }))).toThrow(
      /two different keys/,
    );
    expect(() => keyAnchor(printed.replace(info.fingerprint, `sha256:${'0'.repeat(64)}`))).toThrow(
      /is not that of its key/,
    );
  });

  it('refuses text that is not an Ed25519 key', () => {
    expect(() => privateKeyFromText('c2hvcnQ=')).toThrow(/32 bytes/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => privateKeyFromText(rsa.export({ format: 'pem', type: 'pkcs8' }).toString())).toThrow(
      /Ed25519/,
    );
  });
});
