import { Inject, Injectable } from '@nestjs/common';
import { generateLinkToken } from '@fleet/auth';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { conflict, notFound } from '../http/api-error';
import { Notices } from '../infra/notices';
import { DeviceRegistrationRepository } from './device-registration.repository';
import type { IssuedTokenView, LinkTokenView, RegisterDeviceBody } from './device-registration.schemas';

/**
 * DESIGN §3 "The ListenAI link": an operator registers a ListenAI device and gets the token it presents on its
 * link, once (only its hash is kept). A new token replaces the old ones; revoking one closes the link it opened.
 */
@Injectable()
export class DeviceRegistrationService {
  constructor(
    private readonly registrations: DeviceRegistrationRepository,
    private readonly notices: Notices,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  async register(body: RegisterDeviceBody, operatorId: string): Promise<IssuedTokenView> {
    const token = generateLinkToken();
    const created = await this.registrations.register(
      { id: body.id, model: body.model },
      { prefix: token.prefix, secretHash: token.secretHash, issuedBy: operatorId },
    );
    if (!created) throw conflict('device_exists', `device ${body.id} is already registered`);
    return this.issued(body.id, { ...view(created), secret: token.plaintext }, []);
  }

  async replaceToken(deviceId: string, operatorId: string): Promise<IssuedTokenView> {
    await this.mustBeListenAi(deviceId);
    const token = generateLinkToken();
    const { token: created, revoked } = await this.registrations.replaceToken(deviceId, {
      prefix: token.prefix,
      secretHash: token.secretHash,
      issuedBy: operatorId,
    });
    await this.closeLinks(deviceId, revoked);
    return this.issued(deviceId, { ...view(created), secret: token.plaintext }, revoked);
  }

  async revokeTokens(deviceId: string): Promise<{ deviceId: string; revokedTokens: string[] }> {
    await this.mustBeListenAi(deviceId);
    const revoked = await this.registrations.revokeTokens(deviceId);
    await this.closeLinks(deviceId, revoked);
    return { deviceId, revokedTokens: revoked };
  }

  private async mustBeListenAi(deviceId: string): Promise<void> {
    const dialect = await this.registrations.dialectOf(deviceId);
    if (dialect === undefined) throw notFound('device', deviceId);
    if (dialect !== 'listenai') {
      throw conflict(
        'not_listenai',
        `device ${deviceId} speaks ${dialect}: it has MQTT credentials, not a link token`,
      );
    }
  }

  /** The row already says revoked (the broker refuses it at the next link); this closes a live link now. */
  private async closeLinks(deviceId: string, tokenIds: string[]): Promise<void> {
    for (const tokenId of tokenIds)
      await this.notices.broker({ type: 'device.link_token_revoked', deviceId, tokenId });
  }

  private issued(deviceId: string, token: IssuedTokenView['token'], revoked: string[]): IssuedTokenView {
    return { deviceId, token, linkUrl: this.config.PUBLIC_LINK_URL, revokedTokens: revoked };
  }
}

function view(t: {
  id: string;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}): LinkTokenView {
  return {
    id: t.id,
    prefix: t.prefix,
    createdAt: t.created_at.toISOString(),
    revokedAt: t.revoked_at?.toISOString() ?? null,
    lastUsedAt: t.last_used_at?.toISOString() ?? null,
  };
}
