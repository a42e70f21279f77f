import type { Logger } from '@fleet/telemetry';
import { EdgeGuard } from './edge-guard';
import type { EdgeMetrics } from './edge-metrics';
import { edgeBudgetLimits, readOpenFileLimit, type EdgeBudgetSettings } from './open-file-limit';

/** Below this many open files a broker replica cannot hold the devices it is planned for (deploy/README.md). */
const LOW_OPEN_FILE_LIMIT = 16_384;

/** The edge guard with the budget this process's open-file limit allows, said in the log and in the metrics. */
export function createEdgeGuard(
  settings: EdgeBudgetSettings,
  metrics: EdgeMetrics,
  logger: Logger,
  openFiles = readOpenFileLimit(),
): EdgeGuard {
  const limits = edgeBudgetLimits(settings, openFiles);
  metrics.edgeLimits.set({ limit: 'pending_total' }, limits.pendingMax);
  metrics.edgeLimits.set({ limit: 'pending_per_address' }, limits.pendingPerAddress);
  if (openFiles !== undefined) {
    metrics.edgeLimits.set({ limit: 'open_connections' }, limits.openMax);
    metrics.edgeLimits.set({ limit: 'open_files' }, openFiles);
  }
  logger.info({ openFiles, ...limits }, 'device edge connection budget');
  if (openFiles !== undefined && openFiles < LOW_OPEN_FILE_LIMIT) {
    logger.warn(
      { openFiles },
      `the open-file limit (${openFiles}) caps this broker at ${limits.openMax} device connections: raise the hard RLIMIT_NOFILE where it is started (deploy/README.md)`,
    );
  }
  return new EdgeGuard(limits, metrics, logger);
}
