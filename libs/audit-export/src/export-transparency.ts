import { formatCheckpoint, signNote, type NoteSigner } from '@fleet/transparency';
import type { ExportChain, ExportTransparency } from './audit-export';
import type { EvidenceLog } from './evidence-log';

/** A checkpoint of the log's first `size` leaves, signed under the log's origin (C2SP tlog-checkpoint). */
export function checkpointNote(
  log: EvidenceLog,
  origin: string,
  signer: NoteSigner,
  size = log.size,
): string {
  return signNote(formatCheckpoint({ origin, size, root: log.root(size), extensions: [] }), [signer]);
}

/**
 * DESIGN §6: an export's transparency section: the checkpoint it is committed in, the one before it with the
 * consistency proof between them, the seal keys the deployment accepts, and an inclusion proof for every seal link
 * the export carries that is a leaf of the checkpointed tree. A seal the log left out (not signed by a listed key)
 * gets no proof: the verifier names it.
 */
export function transparencyFor(
  log: EvidenceLog,
  checkpoint: { note: string; size: number },
  previous: { note: string; size: number } | null,
  chains: readonly ExportChain[],
  sealKeys: readonly string[],
): ExportTransparency {
  const inclusions: ExportTransparency['inclusions'] = [];
  for (const chain of chains) {
    for (const link of chain.links ?? []) {
      if (link.stage !== 'seal') continue;
      const index = log.indexOf(chain.deviceId, link.seq);
      if (index === undefined || index >= checkpoint.size || log.entries[index]!.hash !== link.hash) continue;
      inclusions.push({
        deviceId: chain.deviceId,
        seq: link.seq,
        hash: link.hash,
        leafIndex: index,
        proof: log.inclusion(index, checkpoint.size).map((h) => h.toString('base64')),
      });
    }
  }
  return {
    sealKeys: [...sealKeys],
    checkpoint: checkpoint.note,
    previous: previous?.note ?? null,
    consistency: previous
      ? log.consistency(previous.size, checkpoint.size).map((h) => h.toString('base64'))
      : [],
    inclusions,
  };
}
