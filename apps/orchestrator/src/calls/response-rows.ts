import type { EffectPayload, ResponsePayload } from '@fleet/domain';
import { hashUuidFields, readToolCallOutcome, type ToolCallOutcome } from '@fleet/protocol';
import { storedRaw, strayRecords, type Exchange } from '../mcp/exchange';

/** The response row of an exchange (DESIGN §1: id, connection, the raw reply, or "no reply within T"). */
export function responseRow(exchange: Exchange): ResponsePayload {
  const base = {
    jsonrpcId: exchange.jsonrpcId,
    ...(exchange.connectionId ? { connectionId: exchange.connectionId } : {}),
    sentAt: exchange.sentAt.toISOString(),
    // DESIGN §3: same-id replies from other connections, kept raw and never paired.
    ...(exchange.strays?.length ? { strays: strayRecords(exchange) } : {}),
  };
  const o = exchange.outcome;
  if (o.kind === 'timeout')
    return {
      outcome: 'no_reply',
      ...base,
      timeoutMs: o.timeoutMs,
      reason: `no reply within ${o.timeoutMs} ms`,
    };
  const raw = storedRaw(o.raw);
  const received = {
    receivedAt: o.receivedAt.toISOString(),
    latencyMs: o.receivedAt.getTime() - exchange.sentAt.getTime(),
    raw: raw.base64,
    // DESIGN §3: a Client-Id the reply repeats (self.get_system_info's `uuid`) is stored as its hash, and the row
    // says so, since the raw bytes then differ from what arrived there.
    ...(raw.clientIdsHashed ? { clientIdsHashed: raw.clientIdsHashed } : {}),
  };
  if (o.kind === 'unreadable')
    return {
      outcome: 'reply',
      ...base,
      ...received,
      isError: true,
      errorText: `unreadable reply: ${o.message}`,
    };
  const tool = toolOutcomeOf(exchange);
  return {
    outcome: 'reply',
    ...base,
    ...received,
    ...(o.reply.repaired ? { repaired: o.reply.repaired } : {}),
    isError: tool?.kind === 'failure',
    ...(tool?.kind === 'failure' ? { errorText: tool.message } : {}),
    ...(tool?.kind === 'success' ? { text: hashUuidFields(tool.text).text } : {}),
  };
}

/** The tools/call outcome of a reply (undefined without a readable reply). */
export function toolOutcomeOf(exchange: Exchange): ToolCallOutcome | undefined {
  if (exchange.outcome.kind !== 'reply') return undefined;
  const read = readToolCallOutcome(exchange.outcome.reply);
  return read.ok ? read.value : { kind: 'failure', via: 'jsonrpc_error', message: read.error.message };
}

/** The exchange inside an effect row (a readback is part of its call's effect row, with its own id). */
export function readbackRecord(exchange: Exchange): Record<string, unknown> {
  const response = responseRow(exchange);
  return { jsonrpcId: exchange.jsonrpcId, ...response };
}

export function effectRow(
  method: EffectPayload['method'],
  conclusion: string,
  extra: Partial<EffectPayload> = {},
): EffectPayload {
  return { method, conclusion, ...extra };
}
