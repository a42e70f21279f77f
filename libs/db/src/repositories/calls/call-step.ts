import type { Verdict } from '@fleet/domain';
import type { EvidenceRowInput } from '../evidence/chain-links';

/**
 * A move of a call's state by its runner (DESIGN §1: one owner), each guarded as its own statement was before:
 * - `sending`: from queued, waiting or awaiting approval, unless cancelled or sealed (DESIGN §3: once committed the
 *   call can never be sent again, nor cancelled);
 * - `sent`: the request left (only from `sending`);
 * - `waiting_for_device`, `verifying`: a waiting state, unless cancelled or sealed;
 * - `finished`: the verdict, once (the database refuses to change a sealed call and to seal without the seal link).
 */
export type CallTransition =
  | { to: 'sending'; jsonrpcId: number | null; connectionId: string | null; catalogVersionId: string | null }
  | { to: 'sent' }
  | { to: 'waiting_for_device' }
  | { to: 'verifying'; effectDeadlineAt?: Date }
  | {
      to: 'finished';
      verdict: Verdict;
      reason: string;
      result: unknown;
      sealedAt: Date;
      /** The device's status as this call read it (the API's device detail; not evidence). */
      deviceStatus?: unknown;
    };

/** One call step: the state move and the evidence rows of the stages it reached, committed together or not at all. */
export interface CallStep {
  partition: number;
  callId: string;
  deviceId: string;
  transition: CallTransition;
  /** Chained onto the device's head in this order; a `finished` step's seal link follows them. */
  rows: EvidenceRowInput[];
}

/** Whether the step's call moved (false: it was cancelled or sealed meanwhile) and, for `sending`, when. */
export interface StepOutcome {
  moved: boolean;
  sentAt?: Date;
}
