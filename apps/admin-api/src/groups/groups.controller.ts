import { Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { deviceIdParams, uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams } from '../http/validation';
import type { GroupRecord } from './groups.repository';
import { createGroupBody, membersBody, tagsBody, updateGroupBody } from './groups.schemas';
import { GroupsService } from './groups.service';

type Id = z.infer<typeof uuidParams>;

@Controller()
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get('groups')
  @Roles('viewer')
  @Doc({ summary: 'Device groups with their time zone, limits and member count' })
  list(): Promise<GroupRecord[]> {
    return this.groups.list();
  }

  @Get('groups/:id')
  @Roles('viewer')
  @Doc({ summary: 'One group' })
  get(@ValidParams(uuidParams) p: Id): Promise<GroupRecord> {
    return this.groups.get(p.id);
  }

  @Post('groups')
  @HttpCode(201)
  @Roles('admin')
  @Audited('group.create', 'group')
  @Doc({ summary: 'Create a group (time zone for maintenance windows, operator limits)' })
  create(@ValidBody(createGroupBody) body: z.infer<typeof createGroupBody>): Promise<GroupRecord> {
    return this.groups.create(body);
  }

  @Patch('groups/:id')
  @Roles('admin')
  @Audited('group.update', 'group')
  @Doc({ summary: "Change a group's name, time zone or limits" })
  update(@ValidParams(uuidParams) p: Id, @ValidBody(updateGroupBody) body: z.infer<typeof updateGroupBody>) {
    return this.groups.update(p.id, body);
  }

  @Delete('groups/:id')
  @Roles('admin')
  @Audited('group.delete', 'group')
  @Doc({ summary: 'Delete a group (its devices stay)' })
  delete(@ValidParams(uuidParams) p: Id): Promise<{ id: string; deleted: true }> {
    return this.groups.delete(p.id);
  }

  @Put('groups/:id/members')
  @Roles('admin')
  @Audited('group.members', 'group')
  @Doc({ summary: 'Add devices to a group and remove others' })
  members(@ValidParams(uuidParams) p: Id, @ValidBody(membersBody) body: z.infer<typeof membersBody>) {
    return this.groups.changeMembers(p.id, body.add, body.remove);
  }

  @Put('devices/:id/tags')
  @Roles('operator')
  @Audited('device.tags', 'device')
  @Doc({ summary: "Replace a device's tags" })
  tags(
    @ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>,
    @ValidBody(tagsBody) body: z.infer<typeof tagsBody>,
  ) {
    return this.groups.replaceTags(p.id, body.tags);
  }
}
