import {
  evidenceHash,
  SEAL_LINK,
  type ChainLink,
  type EvidenceStage,
  type SealPayload,
  type Verdict,
} from '@fleet/domain';
import type { ChainHead, ChainedRow } from './evidence-chain.repository';

export interface EvidenceRowInput {
  stage: EvidenceStage;
  payload: unknown;
}

/** A call's seal as its call row gets it: the same verdict, reason and time go into the chain. */
export interface SealInput {
  verdict: Verdict;
  reason: string;
  sealedAt: Date;
}

/** The orchestrator's signature over a seal link's hash (DESIGN §6), with the id of the key that made it. */
export type SignSeal = (hash: string) => { keyId: string; signature: string };

/**
 * Chains a call's rows onto its device's head, then its seal as a link of its own after them (DESIGN §6): seq and
 * hash assigned in order, every row of the call with one creation time, the seal signed when a signer is given.
 * Returns the rows and the new head.
 */
export function chainLinks(
  head: ChainHead,
  callId: string,
  deviceId: string,
  rows: readonly EvidenceRowInput[],
  seal: SealInput | undefined,
  createdAt: string,
  signSeal?: SignSeal,
): { rows: ChainedRow[]; head: ChainHead } {
  const links: { stage: ChainLink; payload: unknown }[] = seal
    ? [...rows, { stage: SEAL_LINK, payload: sealPayloadOf(seal) }]
    : [...rows];
  const chained: ChainedRow[] = [];
  for (const row of links) {
    const seq = head.seq + 1n;
    const hash = evidenceHash(head.hash, {
      callId,
      deviceId,
      stage: row.stage,
      seq,
      payload: row.payload,
      createdAt,
    });
    const signature = row.stage === SEAL_LINK && signSeal ? signSeal(hash) : undefined;
    chained.push({
      callId,
      deviceId,
      stage: row.stage,
      seq: seq.toString(),
      payload: row.payload,
      prevHash: head.hash,
      hash,
      createdAt,
      ...(signature ? { sealKeyId: signature.keyId, sealSignature: signature.signature } : {}),
    });
    head = { seq, hash };
  }
  return { rows: chained, head };
}

function sealPayloadOf(seal: SealInput): SealPayload {
  return { verdict: seal.verdict, reason: seal.reason, sealedAt: seal.sealedAt.toISOString() };
}
