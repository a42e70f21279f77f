import { runService } from '@fleet/runtime';
import { createLogger } from '@fleet/telemetry';
import { loadVoiceWorkerConfig } from './config';
import { startVoiceWorker } from './voice-worker-app';

const logger = createLogger('voice-worker');

void runService({
  name: 'voice-worker',
  logger,
  async start() {
    const config = loadVoiceWorkerConfig();
    logger.level = config.LOG_LEVEL;
    return (await startVoiceWorker(config, logger)).stop;
  },
});
