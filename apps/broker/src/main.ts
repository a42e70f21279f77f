import { runService } from '@fleet/runtime';
import { createLogger } from '@fleet/telemetry';
import { startBroker } from './broker-app';
import { loadBrokerConfig } from './config';

const logger = createLogger('broker');

void runService({
  name: 'broker',
  logger,
  async start() {
    const config = loadBrokerConfig();
    logger.level = config.LOG_LEVEL;
    const broker = await startBroker(config, logger);
    return broker.stop;
  },
});
