import type { KeyObject } from 'node:crypto';
import {
  checkpointNote,
  EvidenceLog,
  transparencyFor,
  type SealSigner,
  type UnsignedAuditExport,
} from '@fleet/audit-export';
import { ed25519Signer } from '@fleet/transparency';

export const TEST_LOG_ORIGIN = 'voice-fleet.test/evidence';

/**
 * An export body as the platform makes it (DESIGN §6): every seal link signed with `sealKey` (unless `unsigned`
 * names its call), the signed seals appended to an evidence log after `before` leaves of earlier seals, a
 * checkpoint before and after them signed with `platformKey`, and the proofs. The export signature is the caller's.
 */
export function committedExport(
  body: UnsignedAuditExport,
  platformKey: KeyObject,
  sealKey: SealSigner,
  opts: {
    unsigned?: string[];
    before?: number;
    /** Another key for some calls' seals (a key rotated away from), and the keys the deployment lists. */
    keyOf?: (callId: string) => SealSigner | undefined;
    listed?: string[];
  } = {},
): UnsignedAuditExport {
  const chains = body.evidence.chains.map((chain) => ({
    ...chain,
    ...(chain.links
      ? {
          links: chain.links.map((l) =>
            l.stage === 'seal' && !opts.unsigned?.includes(l.callId)
              ? { ...l, ...signed(opts.keyOf?.(l.callId) ?? sealKey, l.hash) }
              : l,
          ),
        }
      : {}),
  }));
  const earlier = Array.from({ length: opts.before ?? 3 }, (_, i) => ({
    deviceId: 'a0:85:e3:ff:ff:ff',
    seq: String(i + 1),
    hash: String(i).repeat(64).slice(0, 64),
  }));
  const log = new EvidenceLog(earlier);
  const signer = ed25519Signer(TEST_LOG_ORIGIN, platformKey);
  const previous = { note: checkpointNote(log, TEST_LOG_ORIGIN, signer), size: log.size };
  log.append(
    chains.flatMap((c) =>
      (c.links ?? [])
        .filter((l) => l.sealSignature !== undefined)
        .map((l) => ({ deviceId: c.deviceId, seq: l.seq, hash: l.hash })),
    ),
  );
  const checkpoint = { note: checkpointNote(log, TEST_LOG_ORIGIN, signer), size: log.size };
  const evidence = { ...body.evidence, chains };
  return {
    ...body,
    evidence,
    transparency: transparencyFor(log, checkpoint, previous, chains, opts.listed ?? [sealKey.verifierKey]),
  };
}

function signed(key: SealSigner, hash: string) {
  const s = key.sign(hash);
  return { sealKeyId: s.keyId, sealSignature: s.signature };
}
