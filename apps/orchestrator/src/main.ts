import { runService } from '@fleet/runtime';
import { otlpExportEnabled } from '@fleet/config';
import { createLogger, startTracing } from '@fleet/telemetry';
import { loadOrchestratorConfig } from './config';
import { startOrchestrator } from './orchestrator-app';

const logger = createLogger('orchestrator');

void runService({
  name: 'orchestrator',
  logger,
  async start() {
    const config = loadOrchestratorConfig();
    logger.level = config.LOG_LEVEL;
    const tracing = startTracing({ service: 'orchestrator', otlpEnabled: otlpExportEnabled(config) });
    const orchestrator = await startOrchestrator(config, logger);
    return async () => {
      await orchestrator.stop();
      await tracing.shutdown();
    };
  },
});
