import { otlpExportEnabled } from '@fleet/config';
import { runService } from '@fleet/runtime';
import { createLogger, startTracing } from '@fleet/telemetry';
import { loadVoiceWorkerConfig } from './config';
import { startVoiceWorker } from './voice-worker-app';

const logger = createLogger('voice-worker');

void runService({
  name: 'voice-worker',
  logger,
  async start() {
    const config = loadVoiceWorkerConfig();
    logger.level = config.LOG_LEVEL;
    const tracing = startTracing({ service: 'voice-worker', otlpEnabled: otlpExportEnabled(config) });
    const worker = await startVoiceWorker(config, logger);
    return async () => {
      await worker.stop();
      await tracing.shutdown();
    };
  },
});
