import type { Logger } from '@fleet/telemetry';

export type StopFunction = () => Promise<void>;

export interface RunServiceOptions {
  name: string;
  logger: Logger;
  /** Starts everything and returns how to stop it again (in reverse order of starting). */
  start: () => Promise<StopFunction>;
  /** A stop that takes longer is cut short: a stuck socket must not keep a pod terminating forever. */
  shutdownTimeoutMs?: number;
}

/**
 * The life of one service process: start, then on SIGTERM or SIGINT stop gracefully and exit 0.
 * A failed start exits 1 with the reason logged; nothing here decides what "graceful" means for the service.
 */
export async function runService({
  name,
  logger,
  start,
  shutdownTimeoutMs = 10_000,
}: RunServiceOptions): Promise<void> {
  let stop: StopFunction;
  try {
    stop = await start();
  } catch (err) {
    logger.fatal({ err }, `${name} failed to start: ${(err as Error).message}`);
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
    return;
  }
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${name} stopping`);
    const timer = setTimeout(() => {
      logger.error(`${name} did not stop within ${shutdownTimeoutMs} ms; exiting anyway`);
      process.exit(1);
    }, shutdownTimeoutMs);
    timer.unref();
    stop().then(
      () => {
        logger.info(`${name} stopped`);
        clearTimeout(timer);
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, `${name} stopped with an error`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.on('unhandledRejection', (reason) => {
    // Logged, not fatal: one bad promise in a handler must not take every device's connection down.
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
}

/** Collects stop steps as things start, and runs them in reverse. */
/** A stop step this slow is worth a line in the log (the whole stop has `shutdownTimeoutMs`, 10 s by default). */
const SLOW_STOP_STEP_MS = 1_000;

export class StopStack {
  private readonly steps: { name: string; stop: StopFunction }[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly slowStepMs = SLOW_STOP_STEP_MS,
  ) {}

  push(name: string, stop: StopFunction): void {
    this.steps.push({ name, stop });
  }

  readonly stopAll: StopFunction = async (): Promise<void> => {
    for (const step of this.steps.splice(0).reverse()) {
      const started = performance.now();
      try {
        await step.stop();
      } catch (err) {
        this.logger.warn({ err }, `stopping ${step.name} failed`);
      }
      // A stop cut short by the shutdown timeout otherwise leaves no trace of which part held it.
      const ms = Math.round(performance.now() - started);
      if (ms >= this.slowStepMs) this.logger.warn({ ms }, `stopping ${step.name} was slow`);
    }
  };
}
