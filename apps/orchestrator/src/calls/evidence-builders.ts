import type {
  DecisionPayload,
  DiscoveryPayload,
  EffectPayload,
  ParametersPayload,
  ResponsePayload,
} from '@fleet/domain';
import type { CatalogTool, CatalogView } from '../discovery/catalog-view';
import type { CallRecord } from './call-record';

// Builders for the five evidence rows (payload shapes: libs/domain evidence-payloads). A row for a stage that did
// not happen still exists and says why (DESIGN §1).

export function discoveryRow(
  device: { board: string | null; firmwareVersion: string | null },
  catalog: CatalogView | undefined,
  tool:
    CatalogTool | { name: string; description: string; inputSchema: unknown; userOnly: boolean } | undefined,
  sensitive: boolean,
): DiscoveryPayload {
  return {
    board: device.board,
    firmwareVersion: device.firmwareVersion,
    catalog: catalog
      ? {
          versionId: catalog.versionId,
          version: catalog.version,
          hash: catalog.hash,
          discoveredAt: catalog.discoveredAt,
        }
      : null,
    tool: tool
      ? {
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          userOnly: tool.userOnly,
          sensitive,
        }
      : null,
    ...(catalog ? {} : { note: 'the device was not discovered (offline or not back before the deadline)' }),
  };
}

export function requestedBy(call: CallRecord): DecisionPayload['requestedBy'] {
  return {
    origin: call.origin,
    ...(call.operatorId ? { operatorId: call.operatorId } : {}),
    ...(call.apiKeyId ? { apiKeyId: call.apiKeyId } : {}),
    ...(call.voiceTurnId ? { voiceTurnId: call.voiceTurnId } : {}),
    ...(call.campaignId ? { campaignId: call.campaignId } : {}),
    ...(call.agentId ? { agentId: call.agentId } : {}),
    ...(call.parentCallId ? { parentCallId: call.parentCallId } : {}),
  };
}

export function decisionRow(
  call: CallRecord,
  outcome: DecisionPayload['outcome'],
  rules: DecisionPayload['rules'],
  extra: Partial<Pick<DecisionPayload, 'reason' | 'approval' | 'priorState'>> & {
    llmToolCall?: unknown;
    utteranceHash?: string;
  } = {},
): DecisionPayload {
  const { llmToolCall, utteranceHash, ...rest } = extra;
  const context = call.requestContext ?? {};
  const toolCall = llmToolCall ?? context.llmToolCall;
  const hash = utteranceHash ?? context.utteranceHash;
  return {
    requestedBy: { ...requestedBy(call), ...(context.agent ? { agent: context.agent } : {}) },
    request: {
      tool: call.tool,
      arguments: call.arguments,
      ...(call.reason ? { reason: call.reason } : {}),
      ...(hash ? { utteranceHash: hash } : {}),
      ...(toolCall !== undefined ? { llmToolCall: toolCall } : {}),
    },
    rules,
    outcome,
    ...rest,
  };
}

export function parametersNotChecked(call: CallRecord, why: string): ParametersPayload {
  return {
    arguments: call.arguments,
    validation: { ok: false, errors: [], skipped: why },
    firmwareWouldDo: [],
    limits: [],
  };
}

export function responseNotSent(reason: string): ResponsePayload {
  return { outcome: 'not_sent', reason };
}

export function effectNotApplicable(conclusion: string): EffectPayload {
  return { method: 'not_applicable', conclusion };
}
