import type { McpReply, McpRequest } from '@fleet/protocol';

/** One request sent to a device and what came back: the unit of the response row and of discovery records. */
export interface Exchange {
  request: McpRequest;
  jsonrpcId: number;
  /** The id as written on the wire where it differs from jsonrpcId (ListenAI's string ids). */
  wireId?: string;
  /** The device's MQTT connection the request went out on. */
  connectionId: string | undefined;
  sentAt: Date;
  outcome:
    | {
        kind: 'reply';
        reply: McpReply;
        raw: Buffer;
        receivedAt: Date;
        /** The connection the reply came on (a different one after a flap). */
        replyConnectionId: string;
      }
    | { kind: 'unreadable'; message: string; raw: Buffer; receivedAt: Date; replyConnectionId: string }
    | { kind: 'timeout'; timeoutMs: number };
}

export function exchangeRecord(exchange: Exchange): Record<string, unknown> {
  const o = exchange.outcome;
  const base = {
    method: exchange.request.method,
    jsonrpcId: exchange.jsonrpcId,
    ...(exchange.wireId !== undefined ? { wireId: exchange.wireId } : {}),
    connectionId: exchange.connectionId,
    sentAt: exchange.sentAt.toISOString(),
  };
  if (o.kind === 'timeout') return { ...base, outcome: 'no_reply', timeoutMs: o.timeoutMs };
  return {
    ...base,
    outcome: o.kind,
    receivedAt: o.receivedAt.toISOString(),
    latencyMs: o.receivedAt.getTime() - exchange.sentAt.getTime(),
    raw: o.raw.toString('base64'),
    ...(o.replyConnectionId !== exchange.connectionId ? { replyConnectionId: o.replyConnectionId } : {}),
  };
}
