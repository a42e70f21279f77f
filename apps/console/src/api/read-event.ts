import type { EventType, PlatformEvent, platformEventSchema } from '@fleet/api-contract';

export type ReadEvent = { ok: true; event: PlatformEvent } | { ok: false; problem: string };

/**
 * One server-sent event's data, parsed with the contract's schema: a notice that is not JSON, not the type its
 * SSE name says, or off its schema is refused with the reason, never cast (DESIGN §8).
 */
export function readEvent(schema: typeof platformEventSchema, name: EventType, data: string): ReadEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}` };
  }
  if (parsed.data.type !== name) return { ok: false, problem: `its type is "${parsed.data.type}"` };
  return { ok: true, event: parsed.data };
}
