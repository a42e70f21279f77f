import type { ResponsePayload } from '@fleet/domain';
import { hashUuidFields, readToolCallOutcome, type ToolCallOutcome } from '@fleet/protocol';
import { storedRaw, strayRecords, type Exchange } from '../../mcp/exchange';
import type { SpokenDelivery } from '../announcement-judgement';

// Response rows (DESIGN §1: id, connection, the raw reply, or "no reply within T"; or why nothing was sent).

/** The response row of an exchange. */
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

export function responseNotSent(reason: string): ResponsePayload {
  return { outcome: 'not_sent', reason };
}

/** The reboot `system` message: it has no reply (xiaozhi §2.2). */
export function systemMessageResponse(connectionId: string | undefined, sentAt: Date): ResponsePayload {
  return {
    outcome: 'no_reply',
    ...(connectionId ? { connectionId } : {}),
    sentAt: sentAt.toISOString(),
    reason: 'a system message has no reply (xiaozhi §2.2)',
  };
}

/** A reboot or an upgrade taken over from a replica that stopped before its reply was paired. */
export function takenOverRebootResponse(connectionId: string | null): ResponsePayload & { reason: string } {
  return {
    outcome: 'no_reply',
    reason: 'the replica that sent it stopped before a reply was paired',
    ...(connectionId ? { connectionId } : {}),
  };
}

/** Any other call taken over so: nothing settles it now. */
export function takenOverResponse(): ResponsePayload {
  return { outcome: 'no_reply', reason: 'the sending replica stopped before pairing the reply' };
}

/** An alert: the firmware answers with nothing (xiaozhi §2.2). */
export function alertResponse(connectionId: string | undefined, sentAt: Date): ResponsePayload {
  return {
    outcome: 'no_reply',
    ...(connectionId ? { connectionId } : {}),
    sentAt: sentAt.toISOString(),
    reason: 'the firmware answers an alert with nothing (xiaozhi §2.2)',
    alert: 'published',
  };
}

/** Speech in a session: what the voice worker saw of it (the device's answer is its listen start or idle). */
export function spokenResponse(
  d: SpokenDelivery | undefined,
  alert: { connectionId: string | null; sentAt: Date | null },
): ResponsePayload {
  const alerted = alert.sentAt
    ? {
        alert: 'published',
        sentAt: alert.sentAt.toISOString(),
        ...(alert.connectionId ? { connectionId: alert.connectionId } : {}),
      }
    : {};
  if (!d) return { outcome: 'no_reply', ...alerted, reason: 'no voice session was opened in time' };
  const heard = d.heard === 'listen_start' || d.heard === 'idle';
  return {
    outcome: heard && d.heardAt ? 'reply' : 'no_reply',
    ...alerted,
    session: d.sessionId,
    speakingAt: d.speakingAt.toISOString(),
    ...(d.ttsStoppedAt ? { ttsStoppedAt: d.ttsStoppedAt.toISOString() } : {}),
    ...(d.heardAt ? { receivedAt: d.heardAt.toISOString() } : {}),
    ...(d.heard ? { text: d.heard } : {}),
    ...(d.ttsStoppedAt && d.heardAt ? { latencyMs: d.heardAt.getTime() - d.ttsStoppedAt.getTime() } : {}),
    ...(d.synthesisError ? { errorText: d.synthesisError } : {}),
  };
}
