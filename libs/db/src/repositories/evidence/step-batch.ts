import type { CallStep, StepOutcome } from '../calls/call-step';
import { callStepsRepository, type StepDocument } from '../calls/call-steps.repository';
import { distinctLeases, LeaseLostError, type ChainContext } from './chain-context';
import { chainLinks, type SealInput } from './chain-links';
import {
  evidenceChainRepository as store,
  type ChainHead,
  type ChainedRow,
} from './evidence-chain.repository';

/** Whether a step extends its device's chain (its rows, or the seal link of a verdict). */
export function extendsChain(step: CallStep): boolean {
  return step.rows.length > 0 || step.transition.to === 'finished';
}

/**
 * One batch of call steps as one statement (call-steps.repository): the chain heads it needs loaded first in one
 * round trip (only those this replica has not seen), every step's rows chained in memory, then the statement.
 * Answers each step in order: its outcome, or the LeaseLostError that refused it. A head is kept only for a
 * step whose call moved, so a step that lost its race leaves its device's chain where it was.
 */
export async function applyStepBatch(
  ctx: ChainContext,
  steps: readonly CallStep[],
): Promise<(StepOutcome | LeaseLostError)[]> {
  const leases = steps.map((s) => ctx.leaseOf(s.partition));
  const missing = [
    ...new Set(
      steps
        .filter((s, i) => leases[i] && extendsChain(s) && !ctx.heads.has(s.deviceId))
        .map((s) => s.deviceId),
    ),
  ];
  if (missing.length > 0)
    for (const [device, head] of await store.loadHeads(ctx.pool, missing)) ctx.heads.set(device, head);

  const createdAt = new Date().toISOString();
  const documents: StepDocument[] = [];
  const rows: ChainedRow[] = [];
  const tentative = new Map<string, ChainHead>();
  steps.forEach((step, i) => {
    const lease = leases[i];
    if (!lease) return;
    documents.push(documentOf(step, lease.name));
    if (!extendsChain(step)) return;
    const head = tentative.get(step.deviceId) ?? ctx.heads.get(step.deviceId)!;
    const chained = chainLinks(
      head,
      step.callId,
      step.deviceId,
      step.rows,
      sealOf(step),
      createdAt,
      ctx.signSeal,
    );
    rows.push(...chained.rows);
    tentative.set(step.deviceId, chained.head);
  });
  const applied =
    documents.length === 0
      ? { leases: new Set<string>(), moved: new Map<string, { sentAt: Date | null }>() }
      : await callStepsRepository.apply(ctx.pool, ctx.holder, distinctLeases(leases), documents, rows);

  return steps.map((step, i) => {
    const lease = leases[i];
    if (!lease || !applied.leases.has(lease.name)) return new LeaseLostError(step.partition);
    const moved = applied.moved.get(step.callId);
    if (!moved) return { moved: false };
    const head = tentative.get(step.deviceId);
    if (head) ctx.heads.set(step.deviceId, head);
    return moved.sentAt ? { moved: true, sentAt: moved.sentAt } : { moved: true };
  });
}

function sealOf(step: CallStep): SealInput | undefined {
  const t = step.transition;
  return t.to === 'finished' ? { verdict: t.verdict, reason: t.reason, sealedAt: t.sealedAt } : undefined;
}

function documentOf(step: CallStep, lease: string): StepDocument {
  const t = step.transition;
  const base = { callId: step.callId, deviceId: step.deviceId, lease, to: t.to };
  switch (t.to) {
    case 'sending':
      return {
        ...base,
        jsonrpcId: t.jsonrpcId,
        connectionId: t.connectionId,
        catalogVersionId: t.catalogVersionId,
      };
    case 'verifying':
      return t.effectDeadlineAt ? { ...base, effectDeadlineAt: t.effectDeadlineAt.toISOString() } : base;
    case 'finished':
      return {
        ...base,
        verdict: t.verdict,
        reason: t.reason,
        sealedAt: t.sealedAt.toISOString(),
        ...(t.result === undefined ? {} : { result: t.result }),
        ...(t.deviceStatus === undefined ? {} : { deviceStatus: t.deviceStatus }),
      };
    case 'sent':
    case 'waiting_for_device':
      return base;
  }
}
