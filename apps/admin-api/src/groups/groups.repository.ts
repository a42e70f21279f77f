import { Injectable } from '@nestjs/common';
import type { Prisma } from '@fleet/db';
import { ApiError } from '../http/api-error';
import { PrismaService } from '../infra/prisma.service';

export interface GroupRecord {
  id: string;
  name: string;
  timeZone: string;
  limits: unknown;
  createdAt: Date;
  updatedAt: Date;
  memberCount: number;
}

@Injectable()
export class GroupsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async list(): Promise<GroupRecord[]> {
    const groups = await this.prisma.client.deviceGroup.findMany({
      orderBy: { name: 'asc' },
      include: { _count: { select: { members: true } } },
    });
    return groups.map(({ _count, ...g }) => ({ ...g, memberCount: _count.members }));
  }

  async get(id: string): Promise<GroupRecord | undefined> {
    const g = await this.prisma.client.deviceGroup.findUnique({
      where: { id },
      include: { _count: { select: { members: true } } },
    });
    if (!g) return undefined;
    const { _count, ...rest } = g;
    return { ...rest, memberCount: _count.members };
  }

  async create(g: { name: string; timeZone: string; limits: Prisma.InputJsonValue }): Promise<GroupRecord> {
    return uniqueName(g.name, async () => ({
      ...(await this.prisma.client.deviceGroup.create({ data: g })),
      memberCount: 0,
    }));
  }

  async update(
    id: string,
    change: { name?: string; timeZone?: string; limits?: Prisma.InputJsonValue },
  ): Promise<GroupRecord | undefined> {
    if (!(await this.get(id))) return undefined;
    await uniqueName(change.name ?? '', () =>
      this.prisma.client.deviceGroup.update({ where: { id }, data: change }),
    );
    return this.get(id);
  }

  /** A group goes with its memberships (devices stay). */
  async delete(id: string): Promise<boolean> {
    return this.prisma.client.$transaction(async (tx) => {
      await tx.deviceGroupMember.deleteMany({ where: { groupId: id } });
      return (await tx.deviceGroup.deleteMany({ where: { id } })).count === 1;
    });
  }

  /** Unknown devices are named and nothing is changed. */
  async changeMembers(groupId: string, add: string[], remove: string[]): Promise<{ unknown: string[] }> {
    return this.prisma.client.$transaction(async (tx) => {
      const known = await tx.device.findMany({ where: { id: { in: add } }, select: { id: true } });
      const unknown = add.filter((id) => !known.some((d) => d.id === id));
      if (unknown.length > 0) return { unknown };
      await tx.deviceGroupMember.createMany({
        data: add.map((deviceId) => ({ deviceId, groupId })),
        skipDuplicates: true,
      });
      await tx.deviceGroupMember.deleteMany({ where: { groupId, deviceId: { in: remove } } });
      return { unknown: [] };
    });
  }

  async replaceTags(deviceId: string, tags: string[]): Promise<boolean> {
    return this.prisma.client.$transaction(async (tx) => {
      if ((await tx.device.count({ where: { id: deviceId } })) === 0) return false;
      await tx.deviceTag.deleteMany({ where: { deviceId } });
      await tx.deviceTag.createMany({ data: [...new Set(tags)].map((tag) => ({ deviceId, tag })) });
      return true;
    });
  }
}

async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') {
      throw new ApiError(409, 'group_exists', `a group named ${name} exists`);
    }
    throw err;
  }
}
