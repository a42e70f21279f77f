import { runService } from '@fleet/runtime';
import { createLogger } from '@fleet/telemetry';
import { startAdminApi } from './admin-api-app';
import { loadAdminApiConfig } from './config';

const logger = createLogger('admin-api');

void runService({
  name: 'admin-api',
  logger,
  async start() {
    const config = loadAdminApiConfig();
    logger.level = config.LOG_LEVEL;
    return (await startAdminApi(config, logger)).stop;
  },
});
