import { Injectable } from '@nestjs/common';
import { ApiError, conflict, notFound, unprocessable } from '../http/api-error';
import { Notices } from '../infra/notices';
import { DeviceStatusRepository, type DeviceStatus } from './device-status.repository';

export interface StatusChange {
  id: string;
  status: DeviceStatus;
}

/**
 * Binding, revoking, reinstating and decommissioning. The status column is the record (the broker refuses
 * credentials by it at the next connect); the control message makes the broker drop a live connection now.
 */
@Injectable()
export class DeviceLifecycleService {
  constructor(
    private readonly statuses: DeviceStatusRepository,
    private readonly notices: Notices,
  ) {}

  async bind(id: string, code: string): Promise<StatusChange> {
    if (await this.statuses.bind(id, code)) return { id, status: 'active' };
    const status = await this.statuses.statusOf(id);
    if (status === undefined) throw notFound('device', id);
    if (status !== 'awaiting_activation') {
      throw conflict(
        'not_awaiting_activation',
        `device ${id} is ${status}; only a device awaiting activation is bound`,
      );
    }
    throw unprocessable('wrong_activation_code', 'not the code this device was given', 'body.code');
  }

  async revoke(id: string): Promise<StatusChange> {
    await this.move(id, ['active', 'awaiting_activation', 'revoked'], 'revoked');
    await this.notices.broker({ type: 'device.revoked', deviceId: id });
    return { id, status: 'revoked' };
  }

  async reinstate(id: string): Promise<StatusChange> {
    await this.move(id, ['revoked'], 'active');
    return { id, status: 'active' };
  }

  /** Final: a decommissioned device is never reinstated (a device coming back is a new registration). */
  async decommission(id: string): Promise<StatusChange> {
    await this.move(id, ['active', 'awaiting_activation', 'revoked', 'decommissioned'], 'decommissioned');
    await this.notices.broker({ type: 'device.decommissioned', deviceId: id });
    return { id, status: 'decommissioned' };
  }

  private async move(id: string, from: DeviceStatus[], to: DeviceStatus): Promise<void> {
    if (await this.statuses.move(id, from, to)) return;
    const status = await this.statuses.statusOf(id);
    if (status === undefined) throw notFound('device', id);
    throw new ApiError(409, 'invalid_device_status', `device ${id} is ${status}; it cannot become ${to}`);
  }
}
