import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { notFound, unprocessable } from '../http/api-error';
import { GroupsRepository, type GroupRecord } from './groups.repository';
import type { createGroupBody, updateGroupBody } from './groups.schemas';

/** Device groups (a time zone for maintenance windows, operator limits) and device tags, both used by selectors. */
@Injectable()
export class GroupsService {
  constructor(private readonly groups: GroupsRepository) {}

  list(): Promise<GroupRecord[]> {
    return this.groups.list();
  }

  async get(id: string): Promise<GroupRecord> {
    const group = await this.groups.get(id);
    if (!group) throw notFound('group', id);
    return group;
  }

  create(body: z.infer<typeof createGroupBody>): Promise<GroupRecord> {
    return this.groups.create(body);
  }

  async update(id: string, body: z.infer<typeof updateGroupBody>): Promise<GroupRecord> {
    const updated = await this.groups.update(id, body);
    if (!updated) throw notFound('group', id);
    return updated;
  }

  async delete(id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.groups.delete(id))) throw notFound('group', id);
    return { id, deleted: true };
  }

  async changeMembers(id: string, add: string[], remove: string[]): Promise<GroupRecord> {
    await this.get(id);
    const { unknown } = await this.groups.changeMembers(id, add, remove);
    if (unknown.length > 0)
      throw unprocessable('unknown_devices', `no such devices: ${unknown.join(', ')}`, 'body.add');
    return this.get(id);
  }

  async replaceTags(deviceId: string, tags: string[]): Promise<{ deviceId: string; tags: string[] }> {
    if (!(await this.groups.replaceTags(deviceId, tags))) throw notFound('device', deviceId);
    return { deviceId, tags: [...new Set(tags)].sort() };
  }
}
