import {
  CAMPAIGN_TOOL_CHANGED,
  SYSTEM_REBOOT_TOOL,
  PLATFORM_TOOLS,
  toolHash,
  toolSensitivity,
  type DecisionPayload,
  type ToolAccess,
} from '@fleet/domain';
import { argumentsHash } from '@fleet/platform-client';
import type { DeviceRuntime } from '../devices/device-runtime';
import { gate } from '../policy/user-only-gate';
import { concludeNotSent } from '../verification/conclude';
import { decisionRow, discoveryRow } from '../verification/evidence-rows';
import type { NotSentCause } from '../verification/observation';
import { toolStanding } from '../verification/profile-recipe';
import type { Recipe } from '../verification/recipes';
import type { CallRecord } from './call-record';
import type { ApprovalRecord, CallRepository, PolicyContext } from './call-repository';
import type { Conclusion, PreflightFindings, StageRows } from './call-writes';
import { preflight, type PreflightPorts, type RunFirst, type ToolView } from './preflight';

export type Decision =
  | {
      kind: 'conclude';
      conclusion: Conclusion;
      /** The approval the conclusion acted on (its decision is announced with the seal). */
      approval?: DecisionPayload['approval'];
    }
  | { kind: 'wait_for_device' }
  | { kind: 'await_approval'; rows: StageRows; found: PreflightFindings }
  | {
      kind: 'send';
      rows: StageRows;
      recipe: Recipe;
      /** Rules that need a prerequisite call first (run_first). */
      prerequisites: RunFirst[];
      rules: DecisionPayload['rules'];
      approval?: DecisionPayload['approval'];
      expectedVersion?: string;
    };

/** What deciding reads: configuration, the device's policy context, approvals, the firmware registry. */
export interface DecisionPorts extends PreflightPorts {
  config: PreflightPorts['config'];
  calls: Pick<
    CallRepository,
    'firmwareBySha' | 'approvalOfCall' | 'approvalOfCampaign' | 'approvedToolOfTarget'
  >;
}

/**
 * The policy half of the pipeline (DESIGN §4): tool lookup, the tool-access gate, pre-flight (schema, limits,
 * registry firmware, ordering) before any person is asked, then the approval. Reads only: it returns a
 * decision and the runner writes it.
 */
export async function decide(
  ports: DecisionPorts,
  call: CallRecord,
  device: DeviceRuntime,
  /** The device's markings and group limits, read with the call. */
  policy: PolicyContext,
): Promise<Decision> {
  const now = Date.now();
  const pastDeadline = now > call.deadlineAt.getTime();
  if (!device.ready) {
    // DESIGN §4: the deadline holds while a call waits for a person: it ends expired, not undelivered.
    if (pastDeadline && call.state === 'awaiting_approval') {
      const reason = 'the delivery deadline passed while it waited for approval';
      return conclude('approval_lapsed', reason, {
        discovery: discoveryRow(device, device.catalog, undefined, false),
        decision: decisionRow(call, 'expired', [], { reason }),
      });
    }
    if (pastDeadline) {
      return conclude('device_unreachable', 'the device was not online and discovered before the deadline', {
        discovery: discoveryRow(device, device.catalog, undefined, false),
        decision: decisionRow(call, 'undelivered', [], { reason: 'device unreachable until the deadline' }),
      });
    }
    return { kind: 'wait_for_device' };
  }
  const catalog = device.catalog!;
  // The platform's own tools ride on xiaozhi's `system` message (xiaozhi §2.2): a ListenAI link has no such
  // message, so for those devices they do not exist.
  const platformTool =
    device.dialect === 'xiaozhi' ? PLATFORM_TOOLS.find((t) => t.name === call.tool) : undefined;
  const tool: ToolView | undefined =
    catalog.tools.get(call.tool) ??
    (platformTool ? { ...platformTool, inputSchema: platformTool.inputSchema } : undefined);
  if (!tool) {
    return conclude('policy', `the device has no tool named ${call.tool}`, {
      discovery: discoveryRow(device, catalog, undefined, false),
      decision: decisionRow(call, 'rejected', [{ rule: 'tool exists in the catalog', result: 'refused' }], {
        reason: 'unknown tool',
      }),
    });
  }
  const facts = { ...tool, userOnly: tool.userOnly || call.tool === SYSTEM_REBOOT_TOOL };
  // The device's own markings, else its model's tool profile (DESIGN §4, §5).
  const standing = toolStanding(device, call.tool, policy, tool.annotations?.['readOnlyHint']);
  const marking = standing.sensitive;
  const sensitivity = toolSensitivity(facts, marking);
  const discovery = discoveryRow(device, catalog, tool, sensitivity.sensitive);
  const recipe = standing.recipe;
  const access = gate(call.origin, facts, marking, recipe.kind === 'read_only');
  const rules: DecisionPayload['rules'] = [gateRule(access, sensitivity.sensitive)];
  if (access.kind === 'refused') {
    return conclude('policy', access.reason, {
      discovery,
      decision: decisionRow(call, 'rejected', rules, { reason: access.reason }),
    });
  }
  const checked = await preflight(ports, call, device, tool, policy.groups, rules, now);
  if (!checked.ok) {
    return conclude(checked.cause, checked.reason, {
      discovery,
      decision: decisionRow(call, checked.outcome, rules, { reason: checked.reason }),
      parameters: checked.parameters,
    });
  }
  let approval: DecisionPayload['approval'];
  if (access.kind === 'needs_approval') {
    const hash = toolHash(tool);
    // A reboot or an upgrade the busy lock held (DESIGN §4) meets its deadline approved: its approval, given before
    // the deadline, still stands, and the lock says why it was never sent. Any other call past it has expired.
    const given = await approvalOutcome(ports, call, now, hash);
    const outcome =
      pastDeadline && !(heldForConversation(call, recipe) && approvedInTime(given, call.deadlineAt))
        ? ({
            kind: 'refused',
            cause: 'approval_lapsed',
            detail: 'the delivery deadline passed while it waited for approval',
          } satisfies ApprovalOutcome as ApprovalOutcome)
        : given;
    if (outcome.kind === 'wait') {
      return {
        kind: 'await_approval',
        rows: { discovery },
        found: {
          findings: { rules, parameters: checked.parameters, gate: access.reason },
          catalogVersionId: catalog.versionId,
          toolHash: hash,
        },
      };
    }
    if (outcome.kind === 'refused') {
      rules[0] = { rule: 'user-only gate', result: 'refused', detail: outcome.detail };
      return withApproval(outcome.approval, outcome.cause, outcome.detail, {
        discovery,
        decision: decisionRow(call, outcome.cause === 'approval_lapsed' ? 'expired' : 'rejected', rules, {
          reason: outcome.detail,
          ...(outcome.approval ? { approval: outcome.approval } : {}),
        }),
        parameters: checked.parameters,
      });
    }
    approval = outcome.approval;
    rules[0] = {
      rule: 'user-only gate',
      result: 'approved',
      detail: `approved by ${outcome.approval.decidedBy ?? 'a person'}`,
    };
  }
  return {
    kind: 'send',
    rows: { discovery, parameters: checked.parameters },
    recipe,
    prerequisites: checked.prerequisites,
    rules,
    ...(approval ? { approval } : {}),
    ...(checked.expectedVersion ? { expectedVersion: checked.expectedVersion } : {}),
  };
}

function gateRule(access: ToolAccess, sensitive: boolean): DecisionPayload['rules'][number] {
  return {
    rule: 'user-only gate',
    result:
      access.kind === 'refused'
        ? 'refused'
        : access.kind === 'needs_approval'
          ? 'awaiting_approval'
          : 'passed',
    detail: sensitive ? access.reason : 'AI-visible tool',
  };
}

type ApprovalOutcome =
  | { kind: 'approved'; approval: NonNullable<DecisionPayload['approval']> }
  | { kind: 'wait'; open: boolean; detail: string }
  | {
      kind: 'refused';
      /** The approver said no, or nobody said yes in time, or the policy refuses the approval as given. */
      cause: Extract<NotSentCause, 'approver_rejected' | 'approval_lapsed' | 'policy'>;
      detail: string;
      approval?: NonNullable<DecisionPayload['approval']>;
    };

async function approvalOutcome(
  ports: DecisionPorts,
  call: CallRecord,
  now: number,
  currentToolHash: string,
): Promise<ApprovalOutcome> {
  if (call.origin === 'campaign') return campaignApprovalOutcome(ports, call, currentToolHash);
  if (!call.operatorId)
    return {
      kind: 'refused',
      cause: 'policy',
      detail: 'a user-only call needs a named person as requester',
    };
  const a = await ports.calls.approvalOfCall(call.id);
  if (!a) return { kind: 'wait', open: true, detail: 'waiting for another operator to approve' };
  switch (a.state) {
    case 'pending':
      if (a.expiresAt.getTime() <= now)
        return {
          kind: 'refused',
          cause: 'approval_lapsed',
          detail: 'nobody approved it in time',
          approval: { id: a.id, state: 'expired' },
        };
      // DESIGN §4: what a person is asked to approve is the tool pre-flight saw; a new definition is another
      // request, which the requester makes again (the approver who tries is told so, with a 409).
      if (a.toolHash !== null && a.toolHash !== currentToolHash)
        return {
          kind: 'refused',
          cause: 'policy',
          detail: 'the tool changed while the call waited for approval: ask again',
          approval: { id: a.id, state: 'expired' },
        };
      return { kind: 'wait', open: false, detail: 'waiting for another operator to approve' };
    case 'expired':
      return {
        kind: 'refused',
        cause: 'approval_lapsed',
        detail: 'nobody approved it in time',
        approval: { id: a.id, state: 'expired' },
      };
    case 'cancelled':
    case 'void':
      // Closed with its call's seal (the approval follows its call): an unsealed call never meets one.
      return {
        kind: 'refused',
        cause: 'policy',
        detail: `its approval was closed (${a.state})`,
        approval: { id: a.id, state: 'expired' },
      };
    case 'rejected':
      return {
        kind: 'refused',
        cause: 'approver_rejected',
        detail: `rejected by the approver: ${a.reason ?? 'no reason given'}`,
        approval: cite(a),
      };
    case 'approved':
      // The approval binds device, tool and the exact arguments, and another person than the requester.
      if (a.argumentsHash !== argumentsHash(call.deviceId, call.tool, call.arguments)) {
        return {
          kind: 'refused',
          cause: 'policy',
          detail: 'the approval does not match this call',
          approval: cite(a),
        };
      }
      // DESIGN §4: an approval is bound to the tool as it was when given; a changed tool voids it.
      if (a.toolHash !== null && a.toolHash !== currentToolHash) {
        return {
          kind: 'refused',
          cause: 'policy',
          detail: 'the tool changed since it was approved: the approval no longer applies',
          approval: cite(a),
        };
      }
      if (a.decidedBy === call.operatorId) {
        return {
          kind: 'refused',
          cause: 'policy',
          detail: 'approved by the requester themself',
          approval: cite(a),
        };
      }
      return { kind: 'approved', approval: cite(a) };
  }
}

/**
 * A campaign's call runs on the campaign's approval, bound per device to the tool as it was when the campaign
 * was approved (DESIGN §4): a device whose tool changed since is rejected, for the campaign to count and ask
 * approval for again. A target frozen without an approval (the action was open then) has no binding.
 */
async function campaignApprovalOutcome(
  ports: DecisionPorts,
  call: CallRecord,
  currentToolHash: string,
): Promise<ApprovalOutcome> {
  const a = call.campaignId ? await ports.calls.approvalOfCampaign(call.campaignId) : undefined;
  if (a?.state !== 'approved')
    return { kind: 'refused', cause: 'policy', detail: 'user-only action without an approved campaign' };
  const approval = { ...cite(a), campaignId: call.campaignId! };
  const bound = await ports.calls.approvedToolOfTarget(call.campaignId!, call.deviceId);
  if (bound && bound !== currentToolHash)
    return { kind: 'refused', cause: 'policy', detail: CAMPAIGN_TOOL_CHANGED, approval };
  return { kind: 'approved', approval };
}

/** A reboot or an upgrade parked after its approval: the busy lock held it (call-runner). */
function heldForConversation(call: CallRecord, recipe: Recipe): boolean {
  return call.state === 'waiting_for_device' && (recipe.kind === 'reboot' || recipe.kind === 'upgrade');
}

function approvedInTime(outcome: ApprovalOutcome, deadlineAt: Date): boolean {
  const at = outcome.kind === 'approved' ? outcome.approval.decidedAt : undefined;
  return at !== undefined && Date.parse(at) <= deadlineAt.getTime();
}

function cite(a: ApprovalRecord): NonNullable<DecisionPayload['approval']> {
  return {
    id: a.id,
    state: a.state === 'approved' || a.state === 'rejected' ? a.state : 'expired',
    ...(a.decidedBy ? { decidedBy: a.decidedBy } : {}),
    ...(a.decidedAt ? { decidedAt: a.decidedAt.toISOString() } : {}),
    ...(a.reason ? { reason: a.reason } : {}),
  };
}

function withApproval(
  approval: DecisionPayload['approval'],
  cause: NotSentCause,
  reason: string,
  rows: StageRows,
): Decision {
  return {
    kind: 'conclude',
    conclusion: concludeNotSent(cause, reason, rows),
    ...(approval ? { approval } : {}),
  };
}

/** Why the call ends unsent; the verdict is the table's (verification/conclude). */
function conclude(cause: NotSentCause, reason: string, rows: StageRows): Decision {
  return { kind: 'conclude', conclusion: concludeNotSent(cause, reason, rows) };
}
