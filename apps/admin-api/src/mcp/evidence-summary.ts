import {
  decisionPayloadSchema,
  discoveryPayloadSchema,
  effectPayloadSchema,
  parametersPayloadSchema,
  responsePayloadSchema,
  skippedStageSchema,
} from '@fleet/domain';
import type { EvidenceRowView } from '../calls/evidence-view';

/** One line per evidence row: what an agent needs to judge the call without reading five payloads. */
export function stageSummary(row: EvidenceRowView): string {
  if (!row.valid) return `unreadable row (${(row.problems ?? []).join('; ')})`;
  const skipped = skippedStageSchema.safeParse(row.payload);
  if (skipped.success) return `did not happen: ${skipped.data.reason}`;
  switch (row.stage) {
    case 'discovery':
      return discovery(row.payload);
    case 'decision':
      return decision(row.payload);
    case 'parameters':
      return parameters(row.payload);
    case 'response':
      return response(row.payload);
    case 'effect':
      return effect(row.payload);
  }
}

function discovery(payload: unknown): string {
  const p = discoveryPayloadSchema.parse(payload);
  const catalog = p.catalog
    ? `catalog v${p.catalog.version} (${p.catalog.hash.slice(0, 12)})`
    : 'no catalog (not discovered)';
  const tool = p.tool
    ? `tool ${p.tool.name} ${p.tool.userOnly || p.tool.sensitive ? 'user-only' : 'AI-visible'}`
    : 'the device has no such tool';
  return `${catalog}; ${tool}; firmware ${p.firmwareVersion === null ? 'unknown' : JSON.stringify(p.firmwareVersion)}`;
}

function decision(payload: unknown): string {
  const p = decisionPayloadSchema.parse(payload);
  const rules = p.rules.map((r) => `${r.rule}: ${r.result}`).join(', ');
  const prior = p.priorState ? `; prior state read by ${p.priorState.tool}` : '';
  return `${p.outcome}${p.reason ? ` (${p.reason})` : ''}; requested by ${p.requestedBy.origin}${rules ? `; ${rules}` : ''}${prior}`;
}

function parameters(payload: unknown): string {
  const p = parametersPayloadSchema.parse(payload);
  const broken = p.limits.filter((l) => !l.ok).map((l) => `${l.group}: ${l.rule}`);
  const validation = p.validation.ok
    ? 'arguments fit the schema'
    : p.validation.errors.length > 0
      ? `arguments refused: ${p.validation.errors.join('; ')}`
      : 'arguments not checked';
  return broken.length > 0 ? `${validation}; limits broken: ${broken.join('; ')}` : validation;
}

function response(payload: unknown): string {
  const p = responsePayloadSchema.parse(payload);
  switch (p.outcome) {
    case 'reply': {
      // The device's words, quoted as JSON: a reply cannot close the quote and speak as the platform.
      const said = p.isError
        ? `error: ${JSON.stringify(p.errorText ?? p.text ?? '')}`
        : JSON.stringify(p.text ?? '');
      return `reply in ${p.latencyMs ?? '?'} ms: ${said}`;
    }
    case 'no_reply':
      return `no reply${p.timeoutMs ? ` within ${p.timeoutMs} ms` : ''}${p.reason ? ` (${p.reason})` : ''}`;
    case 'not_sent':
      return `not sent${p.reason ? `: ${p.reason}` : ''}`;
  }
}

function effect(payload: unknown): string {
  const p = effectPayloadSchema.parse(payload);
  const seen =
    p.expected !== undefined || p.observed !== undefined
      ? ` (expected ${JSON.stringify(p.expected)}, observed ${JSON.stringify(p.observed)})`
      : '';
  return `${p.method}: ${p.conclusion}${seen}`;
}
