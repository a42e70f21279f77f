import { sql, type Database } from '../../client/kysely';

/** An approval as the orchestrator's gate reads it (types from the generated table). */
export async function approvalOfCall(db: Database, callId: string) {
  return approvalWhere(db).where('call_id', '=', callId).executeTakeFirst();
}

export async function approvalOfCampaign(db: Database, campaignId: string) {
  return approvalWhere(db).where('campaign_id', '=', campaignId).executeTakeFirst();
}

export type ApprovalRecord = NonNullable<Awaited<ReturnType<typeof approvalOfCall>>>;

/**
 * The tool's hash a campaign's approval bound for one device (DESIGN §4): `NO_TOOL_AT_APPROVAL` when the device
 * had no such tool then, null when its target was frozen without an approval, undefined when it is no target.
 */
export async function approvedToolOfTarget(
  db: Database,
  campaignId: string,
  deviceId: string,
): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('campaign_target')
    .select('approved_tool_hash as approvedToolHash')
    .where('campaign_id', '=', campaignId)
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row?.approvedToolHash;
}

function approvalWhere(db: Database) {
  return db
    .selectFrom('approval')
    .select([
      'id',
      'state',
      'arguments_hash as argumentsHash',
      'requested_by as requestedBy',
      'decided_by as decidedBy',
      'decided_at as decidedAt',
      'reason',
      'expires_at as expiresAt',
      'preflight',
      'catalog_version_id as catalogVersionId',
      'tool_hash as toolHash',
    ]);
}

/**
 * Opens the approval a user-only operator call waits for (idempotent per call: a second open answers the first's
 * id and expiry). It is not shown to anyone until the orchestrator's pre-flight has run on it (DESIGN §4: only a
 * call that could run waits for a person).
 */
export async function openCallApproval(
  db: Database,
  call: {
    id: string;
    deviceId: string;
    tool: string;
    arguments: unknown;
    argumentsHash: string;
    operatorId: string;
    ttlMs: number;
  },
): Promise<{ id: string; expiresAt: Date }> {
  return db
    .insertInto('approval')
    .values({
      id: sql<string>`gen_random_uuid()`,
      call_id: call.id,
      device_id: call.deviceId,
      tool: call.tool,
      arguments: JSON.stringify(call.arguments),
      arguments_hash: call.argumentsHash,
      requested_by: call.operatorId,
      expires_at: sql<Date>`now() + make_interval(secs => ${call.ttlMs}::double precision / 1000)`,
    })
    .onConflict((oc) => oc.column('call_id').doUpdateSet({ call_id: (eb) => eb.ref('excluded.call_id') }))
    .returning(['id', 'expires_at as expiresAt'])
    .executeTakeFirstOrThrow();
}

/**
 * Records what pre-flight found and what it was given under (catalog version, the tool's hash): from now on
 * the approval is shown to people. Returns the approval id the first time, undefined after.
 */
export async function recordPreflight(
  db: Database,
  callId: string,
  found: { preflight: unknown; catalogVersionId: string; toolHash: string },
): Promise<string | undefined> {
  const row = await db
    .updateTable('approval')
    .set({
      preflight: JSON.stringify(found.preflight),
      catalog_version_id: found.catalogVersionId,
      tool_hash: found.toolHash,
    })
    .where('call_id', '=', callId)
    .where('state', '=', 'pending')
    .where('preflight', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * Shows a platform tool's approval at once with what the API's own gate found (an announcement: no catalog tool,
 * so no catalog version nor tool hash binds it; the gate that would refuse it has already run).
 */
export async function showPlatformApproval(db: Database, callId: string, preflight: unknown): Promise<void> {
  await db
    .updateTable('approval')
    .set({ preflight: JSON.stringify(preflight) })
    .where('call_id', '=', callId)
    .where('state', '=', 'pending')
    .where('preflight', 'is', null)
    .execute();
}
