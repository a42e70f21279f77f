import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sealEfuseKey, wrappingKeyOf, type WrappingKey } from '@fleet/protocol';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { conflict } from '../http/api-error';
import { toPage, type Page } from '../http/cursor';
import type { Actor } from '../http/actor';
import { readSerialKeyCsv } from './serial-keys-csv';
import { SerialKeysRepository, type SerialKeyView } from './serial-keys.repository';
import { serialKeyCursor } from './serial-keys.schemas';

/**
 * Activation v2 (xiaozhi §4.3, DESIGN §3): the eFuse keys devices prove themselves with. Each key is sealed with
 * AES-256-GCM under the newest configured wrapping key, its serial bound in, before anything is stored; no key
 * ever leaves in an answer, a log line or an audit event (the audit keeps the upload's size and hash).
 */
@Injectable()
export class SerialKeysService {
  private readonly wrapping: WrappingKey;

  constructor(
    private readonly keys: SerialKeysRepository,
    @Inject(ADMIN_API_CONFIG) config: AdminApiConfig,
  ) {
    this.wrapping = wrappingKeyOf(config.efuseWrappingKeys[0]!);
  }

  async import(actor: Actor, csv: Buffer, replace: boolean): Promise<{ imported: number; replaced: number }> {
    const rows = readSerialKeyCsv(csv).map((r) => ({
      serialNumber: r.serialNumber,
      sealedKey: sealEfuseKey(this.wrapping, r.serialNumber, r.efuseKey, randomBytes(12)),
      wrappingKeyId: this.wrapping.id,
    }));
    const { existing } = await this.keys.store(rows, actor.operatorId, replace);
    if (existing.length > 0 && !replace) {
      throw conflict(
        'serial_has_key',
        `${existing.length} serials already have a key (${existing.slice(0, 5).join(', ')}${existing.length > 5 ? ', …' : ''}); send replace=true to replace them`,
      );
    }
    return { imported: rows.length - existing.length, replaced: existing.length };
  }

  async list(limit: number, cursor: [serialNumber: string] | undefined): Promise<Page<SerialKeyView>> {
    const rows = await this.keys.list(limit, cursor?.[0]);
    return toPage(rows, limit, serialKeyCursor, (k) => [k.serialNumber]);
  }
}
