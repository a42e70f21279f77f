import { SYSTEM_REBOOT_TOOL, PLATFORM_TOOLS, type DecisionPayload } from '@fleet/domain';
import { argumentsHash } from '@fleet/platform-client';
import type { CatalogTool } from '../discovery/catalog-view';
import type { DeviceRuntime } from '../devices/device-runtime';
import { checkArguments } from '../policy/argument-validation';
import { checkLimits } from '../policy/operator-limits';
import { orderingNeeds, type OrderingNeed } from '../policy/ordering';
import { gate } from '../policy/user-only-gate';
import { modelRecipeFor } from '../model-readbacks/model-readbacks';
import { recipeFor, type Recipe } from '../verification/recipes';
import type { CallRecord } from './call-record';
import type { ApprovalRecord } from './call-repository';
import type { Conclusion, StageRows } from './call-writes';
import { decisionRow, discoveryRow } from './evidence-builders';
import type { PipelineContext } from './pipeline-context';

export type Decision =
  | { kind: 'conclude'; conclusion: Conclusion }
  | {
      kind: 'wait';
      state: 'waiting_for_device' | 'awaiting_approval';
      rows: StageRows;
      openApproval?: boolean;
    }
  | {
      kind: 'send';
      rows: StageRows;
      recipe: Recipe;
      /** Rules that need a prerequisite call first (run_first). */
      prerequisites: Extract<OrderingNeed, { kind: 'run_first' }>[];
      rules: DecisionPayload['rules'];
      approval?: DecisionPayload['approval'];
      expectedVersion?: string;
    };

type ToolView = Pick<CatalogTool, 'name' | 'description' | 'inputSchema' | 'userOnly'> & Partial<CatalogTool>;

const FIRMWARE_URL = /\/firmware\/([0-9a-f]{64})\.bin$/;

/**
 * The policy half of the pipeline (DESIGN §4): tool lookup, the user-only gate and approvals, strict arguments,
 * operator limits, ordering. Reads only; the runner writes what it decides.
 */
export async function decide(
  ctx: PipelineContext,
  call: CallRecord,
  device: DeviceRuntime,
): Promise<Decision> {
  const now = Date.now();
  if (!device.ready) {
    if (now > call.deadlineAt.getTime()) {
      return conclude('undelivered', 'the device was not online and discovered before the deadline', {
        discovery: discoveryRow(device, device.catalog, undefined, false),
        decision: decisionRow(call, 'undelivered', [], { reason: 'device unreachable until the deadline' }),
      });
    }
    return { kind: 'wait', state: 'waiting_for_device', rows: {} };
  }
  const catalog = device.catalog!;
  const platformTool = PLATFORM_TOOLS.find((t) => t.name === call.tool);
  const tool: ToolView | undefined =
    catalog.tools.get(call.tool) ??
    (platformTool ? { ...platformTool, inputSchema: platformTool.inputSchema } : undefined);
  const policy = await ctx.calls.policyContext(call.deviceId);
  const sensitive = policy.sensitive.has(call.tool);
  const discovery = discoveryRow(device, catalog, tool, sensitive);
  if (!tool) {
    return conclude('rejected', `the device has no tool named ${call.tool}`, {
      discovery,
      decision: decisionRow(call, 'rejected', [{ rule: 'tool exists in the catalog', result: 'refused' }], {
        reason: 'unknown tool',
      }),
    });
  }
  const userOnly = tool.userOnly || sensitive || call.tool === SYSTEM_REBOOT_TOOL;
  const rules: DecisionPayload['rules'] = [
    {
      rule: 'user-only gate',
      result: userOnly ? 'awaiting_approval' : 'passed',
      detail: userOnly ? 'user-only tool' : 'AI-visible tool',
    },
  ];
  const verdictOfGate = gate(call.origin, userOnly);
  if (verdictOfGate.kind === 'rejected') {
    rules[0] = { rule: 'user-only gate', result: 'refused', detail: verdictOfGate.reason };
    return conclude('rejected', verdictOfGate.reason, {
      discovery,
      decision: decisionRow(call, 'rejected', rules, { reason: verdictOfGate.reason }),
    });
  }
  let approval: DecisionPayload['approval'];
  if (verdictOfGate.kind === 'needs_approval') {
    const outcome = await approvalOutcome(ctx, call, now);
    if (outcome.kind !== 'approved') {
      rules[0] = {
        rule: 'user-only gate',
        result: outcome.kind === 'wait' ? 'awaiting_approval' : 'refused',
        detail: outcome.detail,
      };
      if (outcome.kind === 'wait')
        return { kind: 'wait', state: 'awaiting_approval', rows: { discovery }, openApproval: outcome.open };
      return conclude(outcome.verdict, outcome.detail, {
        discovery,
        decision: decisionRow(call, outcome.verdict === 'expired' ? 'expired' : 'rejected', rules, {
          reason: outcome.detail,
          ...(outcome.approval ? { approval: outcome.approval } : {}),
        }),
      });
    }
    approval = outcome.approval;
    rules[0] = {
      rule: 'user-only gate',
      result: 'approved',
      detail: `approved by ${outcome.approval.decidedBy ?? 'a person'}`,
    };
  }
  return decideArguments(ctx, call, device, tool, discovery, rules, approval, policy.groups, now);
}

async function decideArguments(
  ctx: PipelineContext,
  call: CallRecord,
  device: DeviceRuntime,
  tool: ToolView,
  discovery: StageRows['discovery'],
  rules: DecisionPayload['rules'],
  approval: DecisionPayload['approval'],
  groups: { name: string; limits: unknown }[],
  now: number,
): Promise<Decision> {
  const check = tool.listed
    ? checkArguments(tool.listed, tool.firmware, call.arguments)
    : {
        ok: Object.keys(call.arguments).length === 0,
        errors: Object.keys(call.arguments).length ? ['this tool takes no arguments'] : [],
        firmwareWouldDo: [],
      };
  const limits = checkLimits(groups, call.tool, call.arguments);
  const parameters = {
    arguments: call.arguments,
    validation: { ok: check.ok, errors: check.errors },
    firmwareWouldDo: check.firmwareWouldDo,
    limits,
  };
  const decided = (outcome: 'allowed' | 'rejected', reason?: string) =>
    decisionRow(call, outcome, rules, { ...(reason ? { reason } : {}), ...(approval ? { approval } : {}) });
  if (!check.ok) {
    return conclude('invalid_arguments', check.errors.join('; '), {
      discovery,
      decision: decided('allowed'),
      parameters,
    });
  }
  const broken = limits.filter((l) => !l.ok);
  if (broken.length > 0) {
    const reason = `operator limit: ${broken.map((l) => `${l.rule} (${l.group})`).join(', ')}`;
    rules.push(...broken.map((l) => ({ rule: `limit ${l.rule}`, ref: l.group, result: 'refused' as const })));
    return conclude('rejected', reason, { discovery, decision: decided('rejected', reason), parameters });
  }
  let expectedVersion: string | undefined;
  if (call.tool === 'self.upgrade_firmware') {
    const sha = FIRMWARE_URL.exec(String(call.arguments['url']))?.[1];
    const firmware = sha ? await ctx.calls.firmwareBySha(sha) : undefined;
    if (!firmware || !String(call.arguments['url']).startsWith(ctx.config.FIRMWARE_BASE_URL)) {
      const reason = 'firmware only from the registry: the url is not a registry image of this platform';
      rules.push({ rule: 'firmware from the registry', result: 'refused' });
      return conclude('rejected', reason, { discovery, decision: decided('rejected', reason), parameters });
    }
    rules.push({
      rule: 'firmware from the registry',
      result: 'passed',
      detail: `version ${firmware.version}`,
    });
    expectedVersion = firmware.version;
  }
  const needs = orderingNeeds(
    call.tool,
    [...configRules(ctx, call.tool), ...device.catalog!.rules],
    (t) => device.fresh.get(t),
    now,
  );
  for (const need of needs) {
    const ref = {
      ref: need.rule.id,
      ...(need.rule.catalogId ? { catalogVersionId: device.catalog!.versionId } : {}),
    };
    const name = `${need.rule.tool} needs ${need.rule.requires} within ${need.rule.maxAgeMs} ms (${need.rule.source})`;
    if (need.kind === 'refused') {
      rules.push({ rule: name, ...ref, result: 'refused', detail: 'no fresh result and the rule refuses' });
      const reason = `ordering: ${need.rule.requires} must run first`;
      return conclude('rejected', reason, { discovery, decision: decided('rejected', reason), parameters });
    }
    rules.push({
      rule: name,
      ...ref,
      result: need.kind === 'satisfied' ? 'passed' : 'satisfied_by_prerequisite',
      ...(need.kind === 'satisfied' ? { detail: `fresh result of call ${need.callId}` } : {}),
    });
  }
  return {
    kind: 'send',
    rows: { discovery, parameters },
    recipe: modelRecipeFor(ctx.config.MODEL_READBACKS, device, call.tool) ?? recipeFor(call.tool),
    prerequisites: needs.filter(
      (n): n is Extract<OrderingNeed, { kind: 'run_first' }> => n.kind === 'run_first',
    ),
    rules,
    ...(approval ? { approval } : {}),
    ...(expectedVersion ? { expectedVersion } : {}),
  };
}

function configRules(ctx: PipelineContext, tool: string) {
  return ctx.config.ORDERING_RULES.filter((r) => r.tool === tool).map((r, i) => ({
    id: `config:${i}:${r.tool}:${r.requires}`,
    source: 'config' as const,
    tool: r.tool,
    requires: r.requires,
    maxAgeMs: r.maxAgeMs,
    action: r.action,
  }));
}

type ApprovalOutcome =
  | { kind: 'approved'; approval: NonNullable<DecisionPayload['approval']> }
  | { kind: 'wait'; open: boolean; detail: string }
  | {
      kind: 'refused';
      verdict: 'rejected' | 'expired';
      detail: string;
      approval?: NonNullable<DecisionPayload['approval']>;
    };

async function approvalOutcome(
  ctx: PipelineContext,
  call: CallRecord,
  now: number,
): Promise<ApprovalOutcome> {
  if (call.origin === 'campaign') {
    const a = call.campaignId ? await ctx.calls.approvalOfCampaign(call.campaignId) : undefined;
    if (a?.state === 'approved')
      return { kind: 'approved', approval: { ...cite(a), campaignId: call.campaignId! } };
    return { kind: 'refused', verdict: 'rejected', detail: 'user-only action without an approved campaign' };
  }
  if (!call.operatorId)
    return {
      kind: 'refused',
      verdict: 'rejected',
      detail: 'a user-only call needs a named person as requester',
    };
  const a = await ctx.calls.approvalOfCall(call.id);
  if (!a) return { kind: 'wait', open: true, detail: 'waiting for another operator to approve' };
  switch (a.state) {
    case 'pending':
      return a.expiresAt.getTime() <= now
        ? {
            kind: 'refused',
            verdict: 'expired',
            detail: 'nobody approved it in time',
            approval: { id: a.id, state: 'expired' },
          }
        : { kind: 'wait', open: false, detail: 'waiting for another operator to approve' };
    case 'expired':
      return {
        kind: 'refused',
        verdict: 'expired',
        detail: 'nobody approved it in time',
        approval: { id: a.id, state: 'expired' },
      };
    case 'rejected':
      return {
        kind: 'refused',
        verdict: 'rejected',
        detail: `rejected by the approver: ${a.reason ?? 'no reason given'}`,
        approval: cite(a),
      };
    case 'approved':
      // The approval binds device, tool and the exact arguments, and another person than the requester.
      if (a.argumentsHash !== argumentsHash(call.deviceId, call.tool, call.arguments)) {
        return {
          kind: 'refused',
          verdict: 'rejected',
          detail: 'the approval does not match this call',
          approval: cite(a),
        };
      }
      if (a.decidedBy === call.operatorId) {
        return {
          kind: 'refused',
          verdict: 'rejected',
          detail: 'approved by the requester themself',
          approval: cite(a),
        };
      }
      return { kind: 'approved', approval: cite(a) };
  }
}

function cite(a: ApprovalRecord): NonNullable<DecisionPayload['approval']> {
  return {
    id: a.id,
    state: a.state === 'pending' ? 'expired' : a.state,
    ...(a.decidedBy ? { decidedBy: a.decidedBy } : {}),
    ...(a.decidedAt ? { decidedAt: a.decidedAt.toISOString() } : {}),
    ...(a.reason ? { reason: a.reason } : {}),
  };
}

function conclude(verdict: Conclusion['verdict'], reason: string, rows: StageRows): Decision {
  return { kind: 'conclude', conclusion: { verdict, reason, rows } };
}
