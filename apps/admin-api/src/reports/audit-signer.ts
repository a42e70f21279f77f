import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { resolveAuditSigningKey } from '@fleet/config';
import {
  privateKeyFromText,
  publicKeyInfo,
  signAuditExport,
  type AuditExport,
  type PublicKeyInfo,
  type UnsignedAuditExport,
} from '@fleet/audit-export';
import { ed25519Signer, type NoteSigner } from '@fleet/transparency';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';

/** The platform's audit signing key (configured, or the development one), read once at start. */
@Injectable()
export class AuditSigner {
  private readonly key: KeyObject;
  readonly publicKey: PublicKeyInfo;

  constructor(@Inject(ADMIN_API_CONFIG) config: AdminApiConfig) {
    this.key = privateKeyFromText(resolveAuditSigningKey(config.AUDIT_SIGNING_KEY, config.NODE_ENV));
    this.publicKey = publicKeyInfo(this.key);
  }

  sign(body: UnsignedAuditExport): AuditExport {
    return signAuditExport(body, this.key);
  }

  /** The same key as a C2SP note signer under the log's name: checkpoints are signed by the platform (DESIGN §6). */
  noteSigner(name: string): NoteSigner {
    return ed25519Signer(name, this.key);
  }
}
