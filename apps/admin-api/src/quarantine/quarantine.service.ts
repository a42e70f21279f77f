import { Injectable } from '@nestjs/common';
import type { Actor } from '../http/actor';
import { conflict, notFound } from '../http/api-error';
import { toPage, type Page } from '../http/cursor';
import { Transactions, type Tx } from '../infra/transactions';
import { QuarantineRepository, type PendingClaim, type QuarantineRow } from './quarantine.repository';
import { quarantineCursor } from './quarantine.schemas';

/**
 * DESIGN §3: a device whose flash was erased legitimately comes back with a new Client-Id and waits here;
 * accepting binds the MAC to it, rejecting leaves the bound identity in place.
 */
@Injectable()
export class QuarantineService {
  constructor(
    private readonly quarantine: QuarantineRepository,
    private readonly transactions: Transactions,
  ) {}

  async list(
    state: QuarantineRow['state'],
    limit: number,
    cursor: [createdAt: string, id: string] | undefined,
  ): Promise<Page<QuarantineRow>> {
    const after = cursor && { createdAt: cursor[0], id: cursor[1] };
    const rows = await this.quarantine.list(state, limit, after);
    return toPage(rows, limit, quarantineCursor, (q) => [q.createdAt.toISOString(), q.id]);
  }

  accept(
    actor: Actor,
    deviceId: string,
    quarantineId: string | undefined,
    reason?: string,
  ): Promise<QuarantineRow> {
    return this.decide(deviceId, quarantineId, async (db, claim) => {
      await this.quarantine.rebind(db, claim, actor.operatorId, reason);
      return this.quarantine.decide(db, claim.id, 'accepted', actor.operatorId, reason);
    });
  }

  reject(
    actor: Actor,
    deviceId: string,
    quarantineId: string | undefined,
    reason: string,
  ): Promise<QuarantineRow> {
    return this.decide(deviceId, quarantineId, (db, claim) =>
      this.quarantine.decide(db, claim.id, 'rejected', actor.operatorId, reason),
    );
  }

  private async decide(
    deviceId: string,
    quarantineId: string | undefined,
    work: (db: Tx, claim: PendingClaim) => Promise<QuarantineRow>,
  ): Promise<QuarantineRow> {
    if (!(await this.quarantine.deviceExists(deviceId))) throw notFound('device', deviceId);
    return this.transactions.run(async (db) => {
      const pending = await this.quarantine.pendingForUpdate(db, deviceId);
      const claim = quarantineId ? pending.find((q) => q.id === quarantineId) : pending[0];
      if (!claim)
        throw conflict(
          'nothing_pending',
          `device ${deviceId} has no pending quarantine ${quarantineId ?? ''}`.trim(),
        );
      if (!quarantineId && pending.length > 1) {
        throw conflict(
          'choose_quarantine',
          `device ${deviceId} has ${pending.length} pending claims; name one in quarantineId`,
        );
      }
      return work(db, claim);
    });
  }
}
