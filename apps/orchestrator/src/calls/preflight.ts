import type { DecisionPayload } from '@fleet/domain';
import type { OrchestratorConfig } from '../config';
import type { CatalogTool } from '../discovery/catalog-view';
import type { DeviceRuntime } from '../devices/device-runtime';
import { checkArguments } from '../policy/argument-validation';
import { checkLimits } from '../policy/operator-limits';
import { orderingNeeds, type OrderingNeed } from '../policy/ordering';
import type { CallRecord } from './call-record';
import { checkedParameters } from '../verification/evidence-rows';
import type { NotSentCause } from '../verification/observation';
import type { CallRepository } from './call-repository';

export type ToolView = Pick<CatalogTool, 'name' | 'description' | 'inputSchema' | 'userOnly'> &
  Partial<CatalogTool>;

export interface PreflightPorts {
  config: Pick<OrchestratorConfig, 'FIRMWARE_BASE_URL' | 'ORDERING_RULES'>;
  calls: Pick<CallRepository, 'firmwareBySha'>;
}

export type RunFirst = Extract<OrderingNeed, { kind: 'run_first' }>;

export type Preflight =
  | {
      ok: false;
      /** Why it cannot run: the device's schema, or policy (limits, registry firmware, ordering). */
      cause: Extract<NotSentCause, 'schema' | 'policy'>;
      reason: string;
      parameters: unknown;
      /** The decision row says the policy allowed it (the schema refused) or refused it. */
      outcome: 'allowed' | 'rejected';
    }
  | { ok: true; parameters: unknown; expectedVersion?: string; prerequisites: RunFirst[] };

const FIRMWARE_URL = /\/firmware\/([0-9a-f]{64})\.bin$/;

/**
 * Everything that can refuse a call without the device (DESIGN §4): the device's own schema, operator limits,
 * registry-only firmware, refusing ordering rules. Runs before a person is asked, and again at send time.
 * Appends the rules it applied to `rules`.
 */
export async function preflight(
  ports: PreflightPorts,
  call: CallRecord,
  device: DeviceRuntime,
  tool: ToolView,
  groups: { name: string; limits: unknown }[],
  rules: DecisionPayload['rules'],
  now: number,
): Promise<Preflight> {
  const check = tool.listed
    ? checkArguments(tool.listed, tool.firmware, call.arguments)
    : {
        ok: Object.keys(call.arguments).length === 0,
        errors: Object.keys(call.arguments).length ? ['this tool takes no arguments'] : [],
        firmwareWouldDo: [],
      };
  const limits = checkLimits(groups, call.tool, call.arguments);
  const parameters = checkedParameters(call.arguments, check, limits);
  const refused = (reason: string) =>
    ({ ok: false, cause: 'policy', reason, parameters, outcome: 'rejected' }) as const;
  if (!check.ok)
    return {
      ok: false,
      cause: 'schema',
      reason: check.errors.join('; '),
      parameters,
      outcome: 'allowed',
    };
  const broken = limits.filter((l) => !l.ok);
  if (broken.length > 0) {
    rules.push(...broken.map((l) => ({ rule: `limit ${l.rule}`, ref: l.group, result: 'refused' as const })));
    return refused(`operator limit: ${broken.map((l) => `${l.rule} (${l.group})`).join(', ')}`);
  }
  let expectedVersion: string | undefined;
  if (call.tool === 'self.upgrade_firmware') {
    const url = String(call.arguments['url']);
    const sha = FIRMWARE_URL.exec(url)?.[1];
    const firmware = sha ? await ports.calls.firmwareBySha(sha) : undefined;
    if (!firmware || !url.startsWith(ports.config.FIRMWARE_BASE_URL)) {
      rules.push({ rule: 'firmware from the registry', result: 'refused' });
      return refused('firmware only from the registry: the url is not a registry image of this platform');
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
    [...configRules(ports, call.tool), ...device.catalog!.rules],
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
      return refused(`ordering: ${need.rule.requires} must run first`);
    }
    rules.push({
      rule: name,
      ...ref,
      result: need.kind === 'satisfied' ? 'passed' : 'satisfied_by_prerequisite',
      ...(need.kind === 'satisfied' ? { detail: `fresh result of call ${need.callId}` } : {}),
    });
  }
  return {
    ok: true,
    parameters,
    ...(expectedVersion ? { expectedVersion } : {}),
    prerequisites: needs.filter((n): n is RunFirst => n.kind === 'run_first'),
  };
}

/** The registry's version of the image a download URL names (DESIGN §4: firmware only from the registry). */
export async function registryVersionOf(
  ports: Pick<PreflightPorts, 'calls'>,
  url: unknown,
): Promise<string | undefined> {
  const sha = FIRMWARE_URL.exec(String(url))?.[1];
  return sha ? (await ports.calls.firmwareBySha(sha))?.version : undefined;
}

function configRules(ports: PreflightPorts, tool: string) {
  return ports.config.ORDERING_RULES.filter((r) => r.tool === tool).map((r, i) => ({
    id: `config:${i}:${r.tool}:${r.requires}`,
    source: 'config' as const,
    tool: r.tool,
    requires: r.requires,
    maxAgeMs: r.maxAgeMs,
    action: r.action,
  }));
}
