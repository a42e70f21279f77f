import { Controller, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { deviceIdParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams } from '../http/validation';
import {
  issuedTokenView,
  registerDeviceBody,
  revokedTokensView,
  type IssuedTokenView,
  type RegisterDeviceBody,
} from './device-registration.schemas';
import { DeviceRegistrationService } from './device-registration.service';
import { statusChangeBody } from './devices.schemas';

type DeviceId = z.infer<typeof deviceIdParams>;

// Not idempotent on purpose (as API keys): replaying the answer would mean storing the token in plain text.
// A retry of a registration that went through gets 409; a new token is one POST away.
@Controller('devices')
export class DeviceRegistrationController {
  constructor(private readonly registrations: DeviceRegistrationService) {}

  @Post()
  @HttpCode(201)
  @Roles('operator')
  @Audited('device.register', 'device')
  @Doc({
    summary: 'Register a ListenAI device; its link token is in this answer only',
    response: { status: 201, schema: issuedTokenView },
  })
  register(
    @ValidBody(registerDeviceBody) body: RegisterDeviceBody,
    @CurrentActor() actor: Actor,
  ): Promise<IssuedTokenView> {
    return this.registrations.register(body, actor.operatorId);
  }

  @Post(':id/link-token')
  @HttpCode(201)
  @Roles('operator')
  @Audited('device.link_token.issue', 'device')
  @Doc({
    summary: "A new link token for a ListenAI device (shown once); the device's earlier tokens are revoked",
    response: { status: 201, schema: issuedTokenView },
  })
  replaceToken(
    @ValidParams(deviceIdParams) p: DeviceId,
    @ValidBody(statusChangeBody.optional()) _b: unknown,
    @CurrentActor() actor: Actor,
  ): Promise<IssuedTokenView> {
    return this.registrations.replaceToken(p.id, actor.operatorId);
  }

  @Post(':id/link-token/revoke')
  @HttpCode(200)
  @Roles('operator')
  @Audited('device.link_token.revoke', 'device')
  @Doc({
    summary: "Revoke a ListenAI device's link tokens; its open link closes at once",
    response: { status: 200, schema: revokedTokensView },
  })
  revokeTokens(
    @ValidParams(deviceIdParams) p: DeviceId,
    @ValidBody(statusChangeBody.optional()) _b: unknown,
  ): Promise<z.infer<typeof revokedTokensView>> {
    return this.registrations.revokeTokens(p.id);
  }
}
