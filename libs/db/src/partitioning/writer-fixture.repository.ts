import { partitionOf } from '@fleet/domain';
import type { Database } from '../client/kysely';

// Test setup of the partitioning specs, kept where queries are (a repository by its name).

/** A lease the partitioning specs' writer commits under (CommitQueue locks it FOR KEY SHARE). */
export const FIXTURE_LEASE = { name: 'partition-lease', token: '1' };
export const FIXTURE_HOLDER = 'writer-1';

/** Devices, their open calls and the writer's lease: what the evidence writer needs before it may write. */
export async function seedWriterFixture(
  db: Database,
  calls: { callId: string; deviceId: string }[],
): Promise<void> {
  for (const id of new Set(calls.map((c) => c.deviceId)))
    await db.insertInto('device').values({ id, client_id: id, updated_at: new Date() }).execute();
  for (const c of calls)
    await db
      .insertInto('call')
      .values({
        id: c.callId,
        device_id: c.deviceId,
        partition: partitionOf(c.deviceId),
        tool: 't',
        arguments: '{}',
        origin: 'operator',
        deadline_at: new Date(),
      })
      .execute();
  await db
    .insertInto('service_lease')
    .values({ ...FIXTURE_LEASE, holder: FIXTURE_HOLDER, expires_at: new Date(Date.now() + 600_000) })
    .execute();
}
