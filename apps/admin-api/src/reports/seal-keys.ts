import { Inject, Injectable } from '@nestjs/common';
import { SealKeyring } from '@fleet/audit-export';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';

/** The orchestrator seal keys this deployment accepts (SEAL_PUBLIC_KEYS), read once at start (DESIGN §6). */
@Injectable()
export class SealKeys {
  readonly ring: SealKeyring;

  constructor(@Inject(ADMIN_API_CONFIG) config: AdminApiConfig) {
    this.ring = SealKeyring.parse(config.sealPublicKeys);
  }
}
