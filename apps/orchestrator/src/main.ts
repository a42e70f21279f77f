import { runService } from '@fleet/runtime';
import { createLogger } from '@fleet/telemetry';
import { loadOrchestratorConfig } from './config';
import { startOrchestrator } from './orchestrator-app';

const logger = createLogger('orchestrator');

void runService({
  name: 'orchestrator',
  logger,
  async start() {
    const config = loadOrchestratorConfig();
    logger.level = config.LOG_LEVEL;
    return (await startOrchestrator(config, logger)).stop;
  },
});
