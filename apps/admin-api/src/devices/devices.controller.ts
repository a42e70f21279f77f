import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { deviceIdParams } from '../http/common-schemas';
import type { Page } from '../http/cursor';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import { DeviceLifecycleService, type StatusChange } from './device-lifecycle.service';
import {
  bindBody,
  deviceListQuery,
  deviceListView,
  presenceQuery,
  statusChangeBody,
  type DeviceListQuery,
  type DeviceSummary,
} from './devices.schemas';
import { DevicesService, type DeviceDetail } from './devices.service';

type DeviceId = z.infer<typeof deviceIdParams>;

@Controller('devices')
export class DevicesController {
  constructor(
    private readonly devices: DevicesService,
    private readonly lifecycle: DeviceLifecycleService,
  ) {}

  @Get()
  @Roles('viewer')
  @Doc({
    summary: 'The fleet, a page at a time (cursor pagination)',
    response: { status: 200, schema: deviceListView },
  })
  list(
    @CurrentActor() actor: Actor,
    @ValidQuery(deviceListQuery) q: DeviceListQuery,
  ): Promise<Page<DeviceSummary>> {
    return this.devices.list(q, actor.deviceGroups);
  }

  @Get(':id')
  @Roles('viewer')
  @Doc({
    summary:
      'A device: presence, last status readback, current catalog, groups, quarantine, identity changes ' +
      '(its Client-Id only as a fingerprint)',
  })
  detail(@ValidParams(deviceIdParams) p: DeviceId): Promise<DeviceDetail> {
    return this.devices.detail(p.id);
  }

  @Get(':id/presence')
  @Roles('viewer')
  @Doc({ summary: "Presence history: the device's connections, newest first" })
  presence(
    @ValidParams(deviceIdParams) p: DeviceId,
    @ValidQuery(presenceQuery) q: z.infer<typeof presenceQuery>,
  ) {
    return this.devices.presenceHistory(p.id, q.limit, q.cursor);
  }

  @Post(':id/bind')
  @HttpCode(200)
  @Roles('operator')
  @Audited('device.bind', 'device')
  @Doc({ summary: 'Activate a device that waits for activation, by the code it shows' })
  bind(
    @ValidParams(deviceIdParams) p: DeviceId,
    @ValidBody(bindBody) body: z.infer<typeof bindBody>,
  ): Promise<StatusChange> {
    return this.lifecycle.bind(p.id, body.code);
  }

  // The optional reason of a status change is validated here and kept in the request's audit event.
  @Post(':id/revoke')
  @HttpCode(200)
  @Roles('operator')
  @Audited('device.revoke', 'device')
  @Doc({ summary: 'Refuse the device credentials and drop its connection' })
  revoke(
    @ValidParams(deviceIdParams) p: DeviceId,
    @ValidBody(statusChangeBody.optional()) _b: unknown,
  ): Promise<StatusChange> {
    return this.lifecycle.revoke(p.id);
  }

  @Post(':id/reinstate')
  @HttpCode(200)
  @Roles('admin')
  @Audited('device.reinstate', 'device')
  @Doc({ summary: 'Undo a revocation' })
  reinstate(
    @ValidParams(deviceIdParams) p: DeviceId,
    @ValidBody(statusChangeBody.optional()) _b: unknown,
  ): Promise<StatusChange> {
    return this.lifecycle.reinstate(p.id);
  }

  @Post(':id/decommission')
  @HttpCode(200)
  @Roles('admin')
  @Audited('device.decommission', 'device')
  @Doc({ summary: 'Retire the device for good and drop its connection' })
  decommission(
    @ValidParams(deviceIdParams) p: DeviceId,
    @ValidBody(statusChangeBody.optional()) _b: unknown,
  ): Promise<StatusChange> {
    return this.lifecycle.decommission(p.id);
  }
}
