import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import type { QuietHours } from '@fleet/domain';
import { ApiError } from '../http/api-error';
import { PG_POOL } from '../infra/tokens';

export interface GroupRecord {
  id: string;
  name: string;
  timeZone: string;
  limits: unknown;
  quietHours: unknown;
  createdAt: Date;
  updatedAt: Date;
  memberCount: number;
}

type GroupChange = {
  name?: string;
  timeZone?: string;
  limits?: Record<string, unknown>;
  quietHours?: QuietHours | null;
};

@Injectable()
export class GroupsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  list(): Promise<GroupRecord[]> {
    return this.withCounts().orderBy('g.name').execute();
  }

  get(id: string): Promise<GroupRecord | undefined> {
    return this.withCounts().where('g.id', '=', id).executeTakeFirst();
  }

  async create(g: {
    name: string;
    timeZone: string;
    limits: Record<string, unknown>;
    quietHours?: QuietHours | null;
  }): Promise<GroupRecord> {
    const id = randomUUID();
    await uniqueName(g.name, () =>
      this.db
        .insertInto('device_group')
        .values({
          id,
          name: g.name,
          time_zone: g.timeZone,
          limits: JSON.stringify(g.limits),
          quiet_hours: g.quietHours ? JSON.stringify(g.quietHours) : null,
          updated_at: new Date(),
        })
        .execute(),
    );
    return (await this.get(id))!;
  }

  async update(id: string, change: GroupChange): Promise<GroupRecord | undefined> {
    if (!(await this.get(id))) return undefined;
    await uniqueName(change.name ?? '', () =>
      this.db
        .updateTable('device_group')
        .set({
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.timeZone !== undefined ? { time_zone: change.timeZone } : {}),
          ...(change.limits !== undefined ? { limits: JSON.stringify(change.limits) } : {}),
          ...(change.quietHours !== undefined
            ? { quiet_hours: change.quietHours ? JSON.stringify(change.quietHours) : null }
            : {}),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute(),
    );
    return this.get(id);
  }

  /** A group goes with its memberships (devices stay). */
  delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('device_group_member').where('group_id', '=', id).execute();
      const { numDeletedRows } = await tx
        .deleteFrom('device_group')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return numDeletedRows === 1n;
    });
  }

  /** Unknown devices are named and nothing is changed. */
  changeMembers(groupId: string, add: string[], remove: string[]): Promise<{ unknown: string[] }> {
    return this.db.transaction().execute(async (tx) => {
      const known =
        add.length === 0 ? [] : await tx.selectFrom('device').select('id').where('id', 'in', add).execute();
      const knownIds = new Set(known.map((d) => d.id));
      const unknown = add.filter((id) => !knownIds.has(id));
      if (unknown.length > 0) return { unknown };
      if (add.length > 0) {
        await tx
          .insertInto('device_group_member')
          .values(add.map((deviceId) => ({ device_id: deviceId, group_id: groupId })))
          .onConflict((c) => c.doNothing())
          .execute();
      }
      if (remove.length > 0) {
        await tx
          .deleteFrom('device_group_member')
          .where('group_id', '=', groupId)
          .where('device_id', 'in', remove)
          .execute();
      }
      return { unknown: [] };
    });
  }

  replaceTags(deviceId: string, tags: string[]): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const device = await tx.selectFrom('device').select('id').where('id', '=', deviceId).executeTakeFirst();
      if (!device) return false;
      await tx.deleteFrom('device_tag').where('device_id', '=', deviceId).execute();
      const unique = [...new Set(tags)];
      if (unique.length > 0) {
        await tx
          .insertInto('device_tag')
          .values(unique.map((tag) => ({ device_id: deviceId, tag })))
          .execute();
      }
      return true;
    });
  }

  private withCounts() {
    return this.db.selectFrom('device_group as g').select((eb) => [
      'g.id',
      'g.name',
      'g.time_zone as timeZone',
      'g.limits',
      'g.quiet_hours as quietHours',
      'g.created_at as createdAt',
      'g.updated_at as updatedAt',
      eb
        .selectFrom('device_group_member as m')
        .select((c) => c.cast<number>(c.fn.countAll(), 'integer').as('n'))
        .whereRef('m.group_id', '=', 'g.id')
        .$asScalar()
        .$notNull()
        .as('memberCount'),
    ]);
  }
}

async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') {
      throw new ApiError(409, 'group_exists', `a group named ${name} exists`);
    }
    throw err;
  }
}
