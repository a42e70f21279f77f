/**
 * What the platform saw of a call (DESIGN §1): nothing left for the device, or the same-id reply and whatever
 * the effect check observed. Executing a call returns one of these; the verdict table turns it into a verdict.
 */
export type Observation = NotSentObservation | SentObservation;

/** Why a call never left for the device; each cause has exactly one verdict. */
export type NotSentCause =
  'device_unreachable' | 'policy' | 'approver_rejected' | 'schema' | 'approval_lapsed' | 'operator_cancelled';

export interface NotSentObservation {
  sent: false;
  cause: NotSentCause;
  detail: string;
}

export type ReplyObservation =
  | { kind: 'none'; reason: string }
  | { kind: 'unreadable'; message: string }
  | { kind: 'failure'; message: string }
  | { kind: 'success'; text: string };

export type EffectObservation =
  | { kind: 'none' }
  | {
      kind: 'readback';
      path: string;
      expected: unknown;
      observed: unknown;
      /** A status reply was read at all (false: every readback failed). */
      usable: boolean;
    }
  | {
      kind: 'reboot';
      /** A boot check-in of the bound identity after the call went out. */
      boot: { version: string | null } | undefined;
      /** Back online on another connection than the one the call went out on. */
      reconnected: boolean;
      /** Set for an upgrade: the version the registry says the image carries. */
      expectedVersion?: string;
      /** A same-id "true" came (late, after the reply window). */
      lateTrue: boolean;
      /** The version the device last reported (boot check-in or discovery), whatever the call did. */
      lastReportedVersion?: string | null;
      /** The effect deadline has passed: no later observation can settle it. */
      final: boolean;
      deadline: string;
    };

export interface SentObservation {
  sent: true;
  reply: ReplyObservation;
  effect: EffectObservation;
}
