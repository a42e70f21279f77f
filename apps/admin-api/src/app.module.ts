import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { Logger } from '@fleet/telemetry';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { ApprovalsModule } from './approvals/approvals.module';
import { AuditInterceptor } from './audit/audit.interceptor';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { CallsModule } from './calls/calls.module';
import { CampaignsModule } from './campaigns/campaigns.module';
import type { AdminApiConfig } from './config';
import { DeviceToolsModule } from './device-tools/device-tools.module';
import { DevicesModule } from './devices/devices.module';
import { EventsModule } from './events/events.module';
import { FirmwareModule } from './firmware/firmware.module';
import { FleetSummaryModule } from './fleet-summary/fleet-summary.module';
import { GroupsModule } from './groups/groups.module';
import { HealthModule } from './health/health.module';
import { JsonDepthInterceptor } from './http/json-depth.interceptor';
import { UndeclaredInputInterceptor } from './http/undeclared-input.interceptor';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { InfraModule } from './infra/infra.module';
import { McpModule } from './mcp/mcp.module';
import { OperatorsModule } from './operators/operators.module';
import { QuarantineModule } from './quarantine/quarantine.module';
import { ReportsModule } from './reports/reports.module';
import { SerialKeysModule } from './serial-keys/serial-keys.module';
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
  QuarantineModule,
  SerialKeysModule,
  GroupsModule,
  CallsModule,
  ApprovalsModule,
  CampaignsModule,
  FirmwareModule,
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
      // Audit outermost (a refused request is audited too), then refusing a body nested too deep (before anything
      // walks it), then refusing undeclared input, then idempotency (a replayed answer is audited as the request
      // it answers).
      providers: [
        { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
        { provide: APP_INTERCEPTOR, useClass: JsonDepthInterceptor },
        { provide: APP_INTERCEPTOR, useClass: UndeclaredInputInterceptor },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
    };
  }
}
