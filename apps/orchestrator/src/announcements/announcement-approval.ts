import type { ApprovalRecord } from '@fleet/db';
import type { DecisionPayload } from '@fleet/domain';
import { argumentsHash } from '@fleet/platform-client';
import type { CallRecord } from '../calls/call-record';
import type { NotSentCause } from '../verification/observation';

type Cited = NonNullable<DecisionPayload['approval']>;

export type AnnouncementApproval =
  | { kind: 'approved'; approval: Cited }
  | { kind: 'wait' }
  | {
      kind: 'refused';
      /** Why it ends unsent; verification/ names the verdict (DESIGN §1). */
      cause: Extract<NotSentCause, 'approver_rejected' | 'approval_lapsed' | 'policy'>;
      detail: string;
      approval?: Cited;
    };

/**
 * An announcement an admin's rule sent to a second person (DESIGN §4's approval, bound to device, the exact
 * content and another person than the requester). No catalog tool binds it: an announcement is no MCP tool.
 */
export function announcementApproval(
  call: CallRecord,
  a: ApprovalRecord | undefined,
  now: Date,
): AnnouncementApproval {
  if (!a) return { kind: 'refused', cause: 'policy', detail: 'no approval was opened for it' };
  const cite: Cited = {
    id: a.id,
    state: a.state === 'approved' || a.state === 'rejected' ? a.state : 'expired',
    ...(a.decidedBy ? { decidedBy: a.decidedBy } : {}),
    ...(a.decidedAt ? { decidedAt: a.decidedAt.toISOString() } : {}),
    ...(a.reason ? { reason: a.reason } : {}),
  };
  switch (a.state) {
    case 'pending':
      return a.expiresAt <= now
        ? { kind: 'refused', cause: 'approval_lapsed', detail: 'nobody approved it in time', approval: cite }
        : { kind: 'wait' };
    case 'expired':
      return {
        kind: 'refused',
        cause: 'approval_lapsed',
        detail: 'nobody approved it in time',
        approval: cite,
      };
    case 'cancelled':
    case 'void':
      // An approval closes with its call (DESIGN §4): nothing is left for a person to decide.
      return {
        kind: 'refused',
        cause: 'policy',
        detail: `its approval was closed (${a.state})`,
        approval: cite,
      };
    case 'rejected':
      return {
        kind: 'refused',
        cause: 'approver_rejected',
        detail: `rejected by the approver: ${a.reason ?? 'no reason given'}`,
        approval: cite,
      };
    case 'approved':
      if (a.argumentsHash !== argumentsHash(call.deviceId, call.tool, call.arguments))
        return {
          kind: 'refused',
          cause: 'policy',
          detail: 'the approval does not match this call',
          approval: cite,
        };
      if (a.decidedBy === call.operatorId)
        return {
          kind: 'refused',
          cause: 'policy',
          detail: 'approved by the requester themself',
          approval: cite,
        };
      return { kind: 'approved', approval: cite };
  }
}
