import { Module, type DynamicModule, type Type } from '@nestjs/common';
import type { Logger } from '@fleet/telemetry';
import { AnnouncementsModule } from './announcements/announcements.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { ApprovalsModule } from './approvals/approvals.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { CallsModule } from './calls/calls.module';
import { CampaignsModule } from './campaigns/campaigns.module';
import type { AdminApiConfig } from './config';
import { DeviceToolsModule } from './device-tools/device-tools.module';
import { DevicesModule } from './devices/devices.module';
import { EventsModule } from './events/events.module';
import { FirmwareModule } from './firmware/firmware.module';
import { ReleasesModule } from './releases/releases.module';
import { FleetSummaryModule } from './fleet-summary/fleet-summary.module';
import { GroupsModule } from './groups/groups.module';
import { HealthModule } from './health/health.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { InfraModule } from './infra/infra.module';
import { McpModule } from './mcp/mcp.module';
import { OperatorsModule } from './operators/operators.module';
import { QuarantineModule } from './quarantine/quarantine.module';
import { ReportsModule } from './reports/reports.module';
import { SerialKeysModule } from './serial-keys/serial-keys.module';
import { ToolProfilesModule } from './tool-profiles/tool-profiles.module';
import { UtterancesModule } from './utterances/utterances.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The feature modules whose controllers make up `/api/v1` (and so the OpenAPI document). */
export const API_MODULES: Type[] = [
  AuthModule,
  OperatorsModule,
  ApiKeysModule,
  DevicesModule,
  FleetSummaryModule,
  DeviceToolsModule,
  ToolProfilesModule,
  QuarantineModule,
  SerialKeysModule,
  GroupsModule,
  CallsModule,
  AnnouncementsModule,
  ApprovalsModule,
  CampaignsModule,
  FirmwareModule,
  ReleasesModule,
  WebhooksModule,
  ReportsModule,
  EventsModule,
  UtterancesModule,
];

export function apiControllers(): Type[] {
  return API_MODULES.flatMap((m) => (Reflect.getMetadata('controllers', m) as Type[] | undefined) ?? []);
}

@Module({})
export class AppModule {
  static forRoot(config: AdminApiConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot(config, logger),
        HealthModule,
        AuditModule,
        IdempotencyModule,
        ...API_MODULES,
        McpModule, // `/mcp`, outside /api/v1 and its OpenAPI document
      ],
      // Audit, the depth limit, undeclared input and idempotency are declared on each route (http/route-policy).
    };
  }
}
