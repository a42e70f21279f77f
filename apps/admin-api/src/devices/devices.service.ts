import { Injectable } from '@nestjs/common';
import { notFound } from '../http/api-error';
import { toPage, type Page } from '../http/cursor';
import { DeviceDetailRepository, type DeviceDetailRow } from './device-detail.repository';
import { DevicesRepository, type DeviceRow } from './devices.repository';
import { deviceCursor, presenceCursor, type DeviceListQuery, type DeviceSummary } from './devices.schemas';
import { PresenceRepository, type ConnectionRow } from './presence.repository';

export type DeviceDetail = DeviceDetailRow;

@Injectable()
export class DevicesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly details: DeviceDetailRepository,
    private readonly presence: PresenceRepository,
  ) {}

  /** `groupIds`: the bounds of a group-scoped key (only their devices are listed); absent: the whole fleet. */
  async list(q: DeviceListQuery, groupIds?: readonly string[]): Promise<Page<DeviceSummary>> {
    if (groupIds?.length === 0) return { items: [], nextCursor: null };
    const rows = await this.devices.list(q, q.cursor?.[0], groupIds);
    const page = toPage(rows, q.limit, deviceCursor, (d) => [d.id]);
    return { items: page.items.map(summary), nextCursor: page.nextCursor };
  }

  async detail(id: string): Promise<DeviceDetail> {
    const device = await this.details.find(id);
    if (!device) throw notFound('device', id);
    return device;
  }

  async presenceHistory(
    id: string,
    limit: number,
    cursor: [openedAt: string, connectionId: string] | undefined,
  ): Promise<Page<ConnectionRow & { durationS: number | null }>> {
    if (!(await this.devices.exists(id))) throw notFound('device', id);
    const before = cursor && { openedAt: cursor[0], id: cursor[1] };
    const rows = await this.presence.history(id, limit, before);
    const page = toPage(rows, limit, presenceCursor, (c) => [c.openedAt.toISOString(), c.connectionId]);
    return {
      items: page.items.map((c) => ({
        ...c,
        durationS: c.closedAt ? Math.round((c.closedAt.getTime() - c.openedAt.getTime()) / 1000) : null,
      })),
      nextCursor: page.nextCursor,
    };
  }
}

function summary(d: DeviceRow): DeviceSummary {
  return { ...d, lastSeenAt: d.lastSeenAt?.toISOString() ?? null };
}
