import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { auditExportSchema, signedBytes, type AuditExport, type ExportChain } from './audit-export';
import { publicKeyFromText, publicKeyInfo } from './audit-signing-key';
import { decodeStrictUtf8, parseStrictJson } from './strict-json';
import type { TrustAnchor } from './trusted-key';
import { ChainWalk, SEAL_LINK, sealMismatches, type ChainLink, type StoredLink } from '@fleet/domain';
import { checkTransparency, type CheckpointChecked } from './transparency-verify';

export interface ExportProblem {
  deviceId: string;
  seq?: string;
  callId?: string;
  stage?: ChainLink;
  /** A call row's field that disagrees with its seal. */
  field?: string;
  problem: string;
  detail: string;
}

export interface ExportVerification {
  /** Signed with a key the reader trusts, the signature good, the rows there, and every one of them fits. */
  ok: boolean;
  signature: 'valid' | 'invalid';
  /**
   * The key the signature was checked with: `given` (the reader's own copy), `fingerprint` (the file's key, whose
   * fingerprint the reader gave), or `embedded` (the file's key, unvouched for: proves nothing, `trusted` false).
   */
  key: { fingerprint: string; source: 'given' | 'fingerprint' | 'embedded'; embeddedFingerprint: string };
  /** Whether the key that checked the signature is one the reader trusts. */
  trusted: boolean;
  rows: boolean;
  checked: { chains: number; links: number; calls: number; seals: number };
  /** The checkpoint the export is committed in, when it carries one that holds under the trusted key. */
  checkpoint: CheckpointChecked | null;
  /** Every problem in document order; the first names the first row that does not fit. */
  problems: ExportProblem[];
}

export class UnreadableExportError extends Error {}

/** The export's shape checked (strictly: a field the platform did not sign has no place in it). */
export function readAuditExport(input: unknown): AuditExport {
  const parsed = auditExportSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UnreadableExportError(
    `not an audit export: ${issue.path.join('.') || '(top level)'}: ${issue.message}`,
  );
}

/** An export file's bytes, read strictly (UTF-8, no name twice in an object: strict-json.ts), then verified. */
export function verifyAuditExportFile(
  bytes: Uint8Array,
  trust?: TrustAnchor | KeyObject,
): ExportVerification {
  return verifyAuditExport(parseStrictJson(decodeStrictUtf8(bytes)), trust);
}

/**
 * Checks an audit export offline: its signature, then every chain recomputed link by link from the hash it starts
 * at to the head the platform signed, then every call row's sealed fields against its seal in the chain. Only a
 * key the reader trusts (given, or vouched for by its fingerprint) can make it `ok`: without one the signature is
 * checked against the key inside the file, which anyone who re-signs a forgery puts there.
 */
export function verifyAuditExport(input: unknown, trust?: TrustAnchor | KeyObject): ExportVerification {
  const doc = readAuditExport(input);
  const embedded = publicKeyFromText(doc.signature.publicKey);
  const embeddedFingerprint = publicKeyInfo(embedded).fingerprint;
  const anchor: TrustAnchor | undefined =
    trust === undefined || 'kind' in trust ? trust : { kind: 'key', key: trust };
  const key = anchor?.kind === 'key' ? anchor.key : embedded;
  const source = anchor?.kind === 'key' ? 'given' : anchor ? 'fingerprint' : 'embedded';
  const trusted =
    anchor?.kind === 'key' || (anchor?.kind === 'fingerprint' && anchor.fingerprint === embeddedFingerprint);
  const signatureOk = verify(
    null,
    signedBytes(input as object),
    key.type === 'private' ? createPublicKey(key) : key,
    Buffer.from(doc.signature.value, 'base64'),
  );
  const problems: ExportProblem[] = [];
  const checked = { chains: doc.evidence.chains.length, links: 0, calls: 0, seals: 0 };
  let checkpoint: CheckpointChecked | null = null;
  if (doc.evidence.rows) {
    checked.links = checkChains(doc.evidence.chains, problems);
    const seals = checkSeals(doc, problems);
    checked.calls = doc.evidence.calls?.length ?? 0;
    checked.seals = seals;
    checkpoint = checkTransparency(doc, key.type === 'private' ? createPublicKey(key) : key, problems);
  }
  return {
    ok: trusted && signatureOk && doc.evidence.rows && problems.length === 0,
    signature: signatureOk ? 'valid' : 'invalid',
    key: { fingerprint: publicKeyInfo(key).fingerprint, source, embeddedFingerprint },
    trusted,
    rows: doc.evidence.rows,
    checked,
    checkpoint,
    problems,
  };
}

function checkChains(chains: ExportChain[], problems: ExportProblem[]): number {
  const byDevice = new Map(chains.map((c) => [c.deviceId, c]));
  if (byDevice.size !== chains.length) {
    problems.push({
      deviceId: '',
      problem: 'duplicate_chain',
      detail: 'a device has two chains in the export',
    });
  }
  const walk = new ChainWalk(undefined, (deviceId) => {
    const chain = byDevice.get(deviceId)!;
    return { prevHash: chain.prevHash, seq: BigInt(chain.fromSeq) - 1n };
  });
  for (const chain of chains) {
    const links = chain.links ?? [];
    let broken = false;
    for (const link of links) {
      const stored: StoredLink = { ...link, deviceId: chain.deviceId };
      const problem = walk.next(stored);
      if (problem && !broken) {
        broken = true;
        problems.push(problem);
      }
    }
    const last = links[links.length - 1];
    if (!broken && (last?.seq !== chain.head.seq || last.hash !== chain.head.hash)) {
      problems.push({
        deviceId: chain.deviceId,
        seq: chain.head.seq,
        problem: 'head_mismatch',
        detail: last
          ? `the chain ends at seq ${last.seq}, not at the head the export signs`
          : 'the export carries no link of this chain',
      });
    }
  }
  return walk.links;
}

function checkSeals(doc: AuditExport, problems: ExportProblem[]): number {
  const seals = new Map<string, { deviceId: string; payload: unknown; seq: string }>();
  for (const chain of doc.evidence.chains) {
    for (const link of chain.links ?? []) {
      if (link.stage === SEAL_LINK)
        seals.set(link.callId, { deviceId: chain.deviceId, payload: link.payload, seq: link.seq });
    }
  }
  const calls = new Set<string>();
  const from = Date.parse(doc.period.from);
  const to = Date.parse(doc.period.to);
  for (const call of doc.evidence.calls ?? []) {
    calls.add(call.callId);
    const seal = seals.get(call.callId);
    const created = Date.parse(call.createdAt);
    // A call of another period may be sealed past the links this export carries; one of this period may not.
    if (!seal && (created < from || created >= to)) continue;
    for (const m of sealMismatches(call, seal)) {
      problems.push({
        deviceId: m.deviceId,
        callId: m.callId,
        ...(seal ? { seq: seal.seq, stage: SEAL_LINK } : {}),
        field: m.field,
        problem: 'seal_mismatch',
        detail: `${m.detail} (call: ${JSON.stringify(m.call)}, seal: ${JSON.stringify(m.seal)})`,
      });
    }
  }
  for (const [callId, seal] of seals) {
    if (!calls.has(callId)) {
      problems.push({
        deviceId: seal.deviceId,
        callId,
        seq: seal.seq,
        stage: SEAL_LINK,
        problem: 'seal_without_call',
        detail: 'the export carries a seal but not the call row it seals',
      });
    }
  }
  return seals.size;
}
