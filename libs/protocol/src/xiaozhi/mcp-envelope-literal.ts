import {
  literalFirmwarePayload,
  readsAlikeLiterally,
  repairFirmwarePayload,
  type RepairKind,
} from '../mcp/firmware/reply-repair';

// Protocol::SendMcpMessage writes `{"session_id":"<S>","type":"mcp","payload":<P>}` with S and P unescaped.
const HEAD = '{"session_id":"';
const MID = '","type":"mcp","payload":';

export type EnvelopeReading =
  | { readonly ok: true; readonly value: unknown; readonly repaired?: RepairKind }
  | {
      readonly ok: false;
      readonly partial: { readonly type: 'mcp'; readonly sessionId: string; readonly id?: number };
    };

/**
 * Reads a device publish that has the firmware's mcp envelope shape, literally where the firmware did not escape
 * (see literalFirmwarePayload). `parsed` is JSON.parse's reading of the whole text, undefined if that failed.
 * Returns undefined when the text is not a firmware mcp envelope at all.
 */
export function readMcpEnvelope(text: string, parsed: unknown): EnvelopeReading | undefined {
  const mid = text.indexOf(MID);
  if (!text.startsWith(HEAD) || mid < 0 || !text.endsWith('}')) return undefined;
  const sessionId = text.slice(HEAD.length, mid);
  const payloadText = text.slice(mid + MID.length, -1);
  const envelope = (payload: unknown) => ({ session_id: sessionId, type: 'mcp', payload });

  if (parsed !== undefined) {
    const parsedPayload = (parsed as { payload?: unknown }).payload;
    if (parsedPayload !== null && typeof parsedPayload === 'object') {
      if (readsAlikeLiterally(payloadText, parsedPayload)) return { ok: true, value: parsed };
    }
    const literal = literalFirmwarePayload(payloadText);
    if (literal && JSON.stringify(literal.payload) !== JSON.stringify(parsedPayload)) {
      return {
        ok: true,
        value: { ...(parsed as object), payload: literal.payload },
        repaired: literal.repaired,
      };
    }
    return { ok: true, value: parsed };
  }
  try {
    return { ok: true, value: envelope(JSON.parse(payloadText)), repaired: 'unescaped_session_id' };
  } catch {
    const repair = repairFirmwarePayload(payloadText);
    if (repair.ok) return { ok: true, value: envelope(repair.payload), repaired: repair.repaired };
    return {
      ok: false,
      partial: { type: 'mcp', sessionId, ...(repair.id !== undefined ? { id: repair.id } : {}) },
    };
  }
}
