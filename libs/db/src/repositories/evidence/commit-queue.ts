import { withStorableText } from '@fleet/protocol';
import type { Pool } from 'pg';
import { partitionOf } from '@fleet/domain';
import type { CallStep, StepOutcome } from '../calls/call-step';
import { LeaseLostError, type ChainContext } from './chain-context';
import type { SignSeal } from './chain-links';
import { isChainConflict, type ChainHead, type LeaseRef } from './evidence-chain.repository';
import { applyStepBatch, extendsChain } from './step-batch';
import { runUnitTransaction, type Outcome, type Unit, type UnitTx } from './unit-transaction';

export { LeaseLostError } from './chain-context';
export type { UnitTx } from './unit-transaction';

export interface CommitQueueOptions {
  maxConcurrentBatches: number;
  maxBatchSize: number;
  /** Seconds per batch, from its start to its commit (a prom-client histogram fits). */
  latency?: { observe(seconds: number): void };
  /** Signs each seal link's hash (DESIGN §6: the orchestrator's key); seals are unsigned without it. */
  signSeal?: SignSeal;
}

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}
type PendingUnit = Unit & Waiter<unknown>;
interface PendingStep extends Waiter<StepOutcome> {
  step: CallStep;
  /** A `sent` whose call took its next step before it was written: answered, never written. */
  superseded?: boolean;
}

/** How often a batch is run again after another took the seq it chained onto (a few suffice). */
const CHAIN_CONFLICT_ATTEMPTS = 5;

/**
 * Group commit (DESIGN §6): the writes of many concurrent calls share one commit, and each caller goes on only once
 * its own write is committed, so batching costs no durability. Two kinds of batch:
 *
 * - call steps (`step`): a call's state move and the evidence rows of the stage it reached; a batch of them is one
 *   statement in autocommit (call-steps.repository), the lease fence and the seal link inside it;
 * - general units (`submit`): code that writes through a transaction (discovery's catalogs, an approval opened
 *   with its call's move); a batch of them shares one transaction.
 *
 * Every batch locks the leases of the partitions it writes for (FOR KEY SHARE): a replica that lost a lease
 * cannot write, and nobody can take a lease while a batch under it is being committed (a takeover locks the row
 * FOR UPDATE first, see LeaseStore.acquire). KEY SHARE rather than SHARE so that the holder's own renewals, plain
 * UPDATEs, never wait for batches: under a saturated pipeline batches overlap without a gap, and a renewal waiting
 * for a gap missed its TTL. Evidence is chained per device in the order it is appended; a device's next rows wait
 * while a batch with its rows is being committed. No timer decides a batch: whatever arrived while the previous
 * ones ran (or in the same turn of the event loop) goes in the next, so a lone call pays one round trip per step. The orchestrator and the evidence
 * benchmark both write through this class.
 */
export class CommitQueue {
  private units: PendingUnit[] = [];
  private steps: PendingStep[] = [];
  /** Each call's `sent` still waiting in `steps`: its next step supersedes it. */
  private readonly pendingSent = new Map<string, PendingStep>();
  /** Devices whose rows are in a batch being committed: their chain is not settled until it is. */
  private readonly chaining = new Set<string>();
  private running = 0;
  private scheduled = false;
  private stepsWentLast = false;
  private readonly ctx: ChainContext;

  constructor(
    pool: Pool,
    holder: string,
    leaseOf: (partition: number) => LeaseRef | undefined,
    private readonly options: CommitQueueOptions,
  ) {
    this.ctx = {
      pool,
      holder,
      leaseOf,
      heads: new Map<string, ChainHead>(),
      ...(options.signSeal ? { signSeal: options.signSeal } : {}),
    };
  }

  /** A general unit, run in a batch transaction; resolves with what it returned once that transaction committed. */
  submit<T>(partition: number, run: (tx: UnitTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.units.push({ partition, run, resolve, reject } as PendingUnit);
      this.pump();
    });
  }

  /**
   * A call step; resolves once it is committed (or refused: `moved: false` when the call was cancelled or sealed
   * meanwhile; rejects with LeaseLostError when the partition's lease is gone).
   */
  step(asked: CallStep): Promise<StepOutcome> {
    // A device's words reach the rows and the seal's reason (a reply's text, its error); a U+0000 in them would
    // fail the whole batch's statement, other calls' steps with it. The raw bytes stay exact in base64.
    const step = withStorableText(asked);
    return new Promise<StepOutcome>((resolve, reject) => {
      // The row moves on from `sending` directly: a `sent` nobody has written yet says nothing the next step
      // does not, so it is answered as not moved and never written.
      const waiting = this.pendingSent.get(step.callId);
      if (waiting) {
        waiting.superseded = true;
        this.pendingSent.delete(step.callId);
        waiting.resolve({ moved: false });
      }
      const pending: PendingStep = { step, resolve, reject };
      this.steps.push(pending);
      if (step.transition.to === 'sent') this.pendingSent.set(step.callId, pending);
      this.pump();
    });
  }

  /** Forget cached chain heads of a partition (its next owner may have written since). */
  forgetPartition(partition: number): void {
    for (const device of this.ctx.heads.keys())
      if (partitionOf(device) === partition) this.ctx.heads.delete(device);
  }

  /** After the current turn of the event loop: what was asked for in one turn goes out as one batch. */
  private pump(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.running < this.options.maxConcurrentBatches) {
      // Alternate when both kinds wait, so neither starves the other.
      const stepsFirst = this.units.length === 0 || !this.stepsWentLast;
      const started = stepsFirst
        ? this.startSteps() || this.startUnits()
        : this.startUnits() || this.startSteps();
      if (!started) return;
    }
  }

  private startUnits(): boolean {
    if (this.units.length === 0) return false;
    const batch = this.units.splice(0, this.options.maxBatchSize);
    this.stepsWentLast = false;
    this.track(this.commitUnits(batch));
    return true;
  }

  private startSteps(): boolean {
    const batch = this.takeSteps();
    if (batch.length === 0) return false;
    this.stepsWentLast = true;
    const devices = batch.filter((p) => extendsChain(p.step)).map((p) => p.step.deviceId);
    for (const device of devices) this.chaining.add(device);
    this.track(
      this.commitSteps(batch, CHAIN_CONFLICT_ATTEMPTS).finally(() => {
        for (const device of devices) this.chaining.delete(device);
      }),
    );
    return true;
  }

  /** The next batch of steps, at most one per device, none for a device whose rows are being committed. */
  private takeSteps(): PendingStep[] {
    const batch: PendingStep[] = [];
    const devices = new Set<string>();
    const later: PendingStep[] = [];
    for (const pending of this.steps) {
      if (pending.superseded) continue;
      const { deviceId, callId, transition } = pending.step;
      const held =
        batch.length >= this.options.maxBatchSize ||
        devices.has(deviceId) ||
        (extendsChain(pending.step) && this.chaining.has(deviceId));
      if (held) {
        later.push(pending);
        continue;
      }
      batch.push(pending);
      devices.add(deviceId);
      if (transition.to === 'sent') this.pendingSent.delete(callId);
    }
    this.steps = later;
    return batch;
  }

  private track(batch: Promise<void>): void {
    this.running++;
    const started = performance.now();
    void batch.finally(() => {
      this.options.latency?.observe((performance.now() - started) / 1000);
      this.running--;
      this.pump();
    });
  }

  private async commitUnits(batch: PendingUnit[]): Promise<void> {
    try {
      const outcomes = await runUnitTransaction(this.ctx, batch);
      outcomes.forEach((o, i) => settle(batch[i]!, o));
    } catch {
      // One unit broke the shared transaction: run each on its own so the others still commit.
      for (const unit of batch) await this.commitUnitAlone(unit);
    }
  }

  /**
   * One unit in a transaction of its own. Two batches may both extend one device's chain from the same cached
   * head; the second then meets the first's seq in the unique index (Postgres makes it wait for the first to
   * commit), its cached heads are dropped, and it is run again on the heads as committed.
   */
  private async commitUnitAlone(unit: PendingUnit): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const [outcome] = await runUnitTransaction(this.ctx, [unit]);
        return settle(unit, outcome!);
      } catch (err) {
        if (!isChainConflict(err) || attempt >= CHAIN_CONFLICT_ATTEMPTS) return unit.reject(err);
      }
    }
  }

  /** A batch of steps; after a failure each is tried alone, so one bad step fails only its own caller. */
  private async commitSteps(batch: PendingStep[], attempts: number): Promise<void> {
    try {
      const outcomes = await applyStepBatch(
        this.ctx,
        batch.map((p) => p.step),
      );
      outcomes.forEach((o, i) => (o instanceof LeaseLostError ? batch[i]!.reject(o) : batch[i]!.resolve(o)));
    } catch (err) {
      if (isChainConflict(err)) for (const p of batch) this.ctx.heads.delete(p.step.deviceId);
      if (batch.length > 1) {
        for (const p of batch) await this.commitSteps([p], CHAIN_CONFLICT_ATTEMPTS);
      } else if (isChainConflict(err) && attempts > 1) {
        await this.commitSteps(batch, attempts - 1);
      } else {
        batch[0]!.reject(err);
      }
    }
  }
}

function settle(waiter: Waiter<unknown>, outcome: Outcome): void {
  if (outcome.ok) waiter.resolve(outcome.value);
  else waiter.reject(outcome.error);
}
