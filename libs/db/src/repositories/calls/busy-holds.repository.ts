import type { Database } from '../../client/kysely';

/** A call's busy-lock row (DESIGN §4): when it began to wait for a conversation to end, and any override. */
export interface BusyHold {
  heldSince: Date | null;
  override?: { by: string; reason: string; at: Date };
}

/**
 * The orchestrator, as a disruptive call meets a device in a conversation: the first hold is kept (a call woken
 * again, or taken over by another replica, still knows when its wait began). Answers the row as it is now.
 */
export async function holdForConversation(
  db: Database,
  callId: string,
  deviceId: string,
  at: Date,
): Promise<BusyHold> {
  const row = await db
    .insertInto('call_busy_hold')
    .values({ call_id: callId, device_id: deviceId, held_since: at })
    .onConflict((oc) =>
      oc.column('call_id').doUpdateSet((eb) => ({
        held_since: eb.fn.coalesce('call_busy_hold.held_since', eb.ref('excluded.held_since')),
      })),
    )
    .returning(['held_since', 'overridden_by', 'override_reason', 'overridden_at'])
    .executeTakeFirstOrThrow();
  return toHold(row);
}

export async function busyHoldOf(db: Database, callId: string): Promise<BusyHold | undefined> {
  const row = await db
    .selectFrom('call_busy_hold')
    .select(['held_since', 'overridden_by', 'override_reason', 'overridden_at'])
    .where('call_id', '=', callId)
    .executeTakeFirst();
  return row && toHold(row);
}

/** An operator lets a disruptive call go during a conversation; the first override stands (it is evidence). */
export async function overrideBusyLock(
  db: Database,
  call: { id: string; deviceId: string },
  operatorId: string,
  reason: string,
): Promise<BusyHold> {
  const row = await db
    .insertInto('call_busy_hold')
    .values({
      call_id: call.id,
      device_id: call.deviceId,
      overridden_by: operatorId,
      override_reason: reason,
      overridden_at: new Date(),
    })
    .onConflict((oc) =>
      oc
        .column('call_id')
        .doUpdateSet((eb) => ({
          overridden_by: eb.ref('excluded.overridden_by'),
          override_reason: eb.ref('excluded.override_reason'),
          overridden_at: eb.ref('excluded.overridden_at'),
        }))
        .where('call_busy_hold.overridden_by', 'is', null),
    )
    .returning(['held_since', 'overridden_by', 'override_reason', 'overridden_at'])
    .executeTakeFirst();
  return row ? toHold(row) : (await busyHoldOf(db, call.id))!;
}

function toHold(row: {
  held_since: Date | null;
  overridden_by: string | null;
  override_reason: string | null;
  overridden_at: Date | null;
}): BusyHold {
  return {
    heldSince: row.held_since,
    ...(row.overridden_by && row.overridden_at
      ? { override: { by: row.overridden_by, reason: row.override_reason ?? '', at: row.overridden_at } }
      : {}),
  };
}
