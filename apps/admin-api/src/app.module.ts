import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@fleet/telemetry';
import type { AdminApiConfig } from './config';
import { HealthModule } from './health/health.module';
import { InfraModule } from './infra/infra.module';

@Module({})
export class AppModule {
  static forRoot(config: AdminApiConfig, logger: Logger): DynamicModule {
    return { module: AppModule, imports: [InfraModule.forRoot(config, logger), HealthModule] };
  }
}
