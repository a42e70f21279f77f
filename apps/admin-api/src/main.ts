import { otlpExportEnabled } from '@fleet/config';
import { runService } from '@fleet/runtime';
import { createLogger, startTracing } from '@fleet/telemetry';
import { startAdminApi } from './admin-api-app';
import { loadAdminApiConfig } from './config';

const logger = createLogger('admin-api');

void runService({
  name: 'admin-api',
  logger,
  async start() {
    const config = loadAdminApiConfig();
    logger.level = config.LOG_LEVEL;
    const tracing = startTracing({ service: 'admin-api', otlpEnabled: otlpExportEnabled(config) });
    const api = await startAdminApi(config, logger);
    return async () => {
      await api.stop();
      await tracing.shutdown();
    };
  },
});
