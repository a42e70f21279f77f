import { createHash } from 'node:crypto';
import { hashUuidFields, type McpReply, type McpRequest } from '@fleet/protocol';

/**
 * A reply with the request's id that came on another connection than the request went out on (an impostor's,
 * or an older connection's): kept raw with the exchange, counted, never paired (DESIGN §3).
 */
export interface StrayReply {
  connectionId: string;
  receivedAt: Date;
  raw: Buffer;
}

/** One request sent to a device and what came back: the unit of the response row and of discovery records. */
export interface Exchange {
  request: McpRequest;
  jsonrpcId: number;
  /** The id as written on the wire where it differs from jsonrpcId (ListenAI's string ids). */
  wireId?: string;
  /** The device's connection the request went out on: the only one whose reply pairs. */
  connectionId: string | undefined;
  sentAt: Date;
  outcome:
    | { kind: 'reply'; reply: McpReply; raw: Buffer; receivedAt: Date }
    | { kind: 'unreadable'; message: string; raw: Buffer; receivedAt: Date }
    | { kind: 'timeout'; timeoutMs: number };
  strays?: StrayReply[];
}

/** The strays as evidence rows record them: who sent what, when, in the exact bytes. */
export function strayRecords(exchange: Exchange): Record<string, unknown>[] {
  return (exchange.strays ?? []).map((s) => {
    const raw = storedRaw(s.raw);
    return {
      connectionId: s.connectionId,
      receivedAt: s.receivedAt.toISOString(),
      raw: raw.base64,
      ...(raw.clientIdsHashed ? { clientIdsHashed: raw.clientIdsHashed } : {}),
    };
  });
}

/**
 * A reply's bytes as evidence keeps them (base64): exactly as received, except that a `uuid` field (the device's
 * Client-Id in a system-info answer, xiaozhi §4.2) is stored as its hash, a device secret never kept in clear
 * (DESIGN §3). Bytes with no such field stay byte for byte, invalid UTF-8 included.
 */
export function storedRaw(bytes: Buffer): { base64: string; clientIdsHashed: number } {
  const text = bytes.toString('utf8');
  const hashed = text.includes('uuid') ? hashUuidFields(text) : { text, hashed: 0 };
  return hashed.hashed === 0
    ? { base64: bytes.toString('base64'), clientIdsHashed: 0 }
    : { base64: Buffer.from(hashed.text, 'utf8').toString('base64'), clientIdsHashed: hashed.hashed };
}

/** A reply's exact bytes named by their SHA-256 (hex): how `discovery_reply` keeps them, once per content. */
export interface NamedReply {
  sha256: string;
  raw: Buffer;
}

export function nameReply(raw: Buffer): NamedReply {
  return { sha256: createHash('sha256').update(raw).digest('hex'), raw };
}

/**
 * A discovery's exchanges as its catalog version records them (DESIGN §3): each reply named by its hash
 * (`rawSha256`), and the distinct replies themselves, which devices of one build send alike.
 */
export function discoveryRecords(exchanges: readonly Exchange[]): {
  exchanges: Record<string, unknown>[];
  replies: NamedReply[];
} {
  const replies = new Map<string, NamedReply>();
  const records = exchanges.map((exchange) => {
    const o = exchange.outcome;
    const base = {
      method: exchange.request.method,
      jsonrpcId: exchange.jsonrpcId,
      ...(exchange.wireId !== undefined ? { wireId: exchange.wireId } : {}),
      connectionId: exchange.connectionId,
      sentAt: exchange.sentAt.toISOString(),
      ...(exchange.strays?.length ? { strays: strayRecords(exchange) } : {}),
    };
    if (o.kind === 'timeout') return { ...base, outcome: 'no_reply', timeoutMs: o.timeoutMs };
    const reply = nameReply(o.raw);
    replies.set(reply.sha256, reply);
    return {
      ...base,
      outcome: o.kind,
      receivedAt: o.receivedAt.toISOString(),
      latencyMs: o.receivedAt.getTime() - exchange.sentAt.getTime(),
      rawSha256: reply.sha256,
    };
  });
  return { exchanges: records, replies: [...replies.values()] };
}
