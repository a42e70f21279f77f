import { ToolProfilesRepository, type Database, type ToolProfileRow } from '@fleet/db';
import type { ToolProfileBody } from '@fleet/domain';

/** Where the audit trail says a profile came from (the API's own rows say the route). */
export const IMPORT_SOURCE = 'db:import-readbacks';

/**
 * Writes the imported profiles as the operator `adminEmail` names, each with its audit event as the API's
 * PUT /tool-profiles writes one (`tool_profile.put` on the profile), all in one transaction: an import that
 * fails halfway leaves neither profiles nor events behind.
 */
export async function importProfiles(
  db: Database,
  adminEmail: string,
  bodies: readonly ToolProfileBody[],
): Promise<ToolProfileRow[]> {
  return db.transaction().execute(async (tx) => {
    const by = await tx
      .selectFrom('operator')
      .select('id')
      .where('email', '=', adminEmail)
      .executeTakeFirst();
    if (!by) throw new Error(`no operator ${adminEmail} (set ADMIN_EMAIL to the person importing)`);
    const profiles = new ToolProfilesRepository(tx);
    const written: ToolProfileRow[] = [];
    for (const body of bodies) {
      const row = await profiles.put(body, by.id);
      await tx
        .insertInto('audit_event')
        .values({
          operator_id: by.id,
          action: 'tool_profile.put',
          target_type: 'tool_profile',
          target_id: row.id,
          // jsonb as text, as the API's audit rows are written
          details: JSON.stringify({ outcome: 'done', source: IMPORT_SOURCE, body }),
        })
        .execute();
      written.push(row);
    }
    return written;
  });
}
