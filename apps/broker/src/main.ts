import { otlpExportEnabled } from '@fleet/config';
import { runService } from '@fleet/runtime';
import { createLogger, startTracing } from '@fleet/telemetry';
import { startBroker } from './broker-app';
import { loadBrokerConfig } from './config';

const logger = createLogger('broker');

void runService({
  name: 'broker',
  logger,
  async start() {
    const config = loadBrokerConfig();
    logger.level = config.LOG_LEVEL;
    const tracing = startTracing({ service: 'broker', otlpEnabled: otlpExportEnabled(config) });
    const broker = await startBroker(config, logger);
    return async () => {
      await broker.stop();
      await tracing.shutdown();
    };
  },
});
