import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { FleetSummary } from '@fleet/device-sim';
import { nextMessage, stopChild } from '../harness/child-process';
import type { FleetProcessCommand, FleetProcessMessage, FleetProcessOptions } from '../load/fleet-process';
import type { ListenAiFleetProcessOptions } from '../load/listenai-fleet-process';

/** What every simulated fleet reports (a ListenAI fleet has no boots or check-ins; it says what it can). */
export type SimFleetSummary = Pick<FleetSummary, 'devices' | 'connected'> & Partial<FleetSummary>;

export interface SimFleet {
  pid: number;
  /** The fleet's latest progress report (every 200 ms once started). */
  readonly summary: SimFleetSummary | undefined;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The simulated fleet in its own process (load/fleet-process.ts, or another fleet script speaking the same
 * messages, such as load/listenai-fleet-process.ts), so its CPU is counted apart.
 */
export async function forkSimFleet(
  options: FleetProcessOptions | ListenAiFleetProcessOptions,
  script = '../load/fleet-process.js',
): Promise<SimFleet> {
  const child: ChildProcess = fork(join(__dirname, script), [JSON.stringify(options)], { execArgv: [] });
  let summary: SimFleetSummary | undefined;
  child.on('message', (m: FleetProcessMessage | { type: 'progress'; summary: SimFleetSummary }) => {
    if (m.type === 'progress') summary = m.summary;
  });
  const command = (c: FleetProcessCommand) => child.send(c);
  await nextMessage(child, 'ready');
  let stopped = false;
  return {
    pid: child.pid!,
    get summary() {
      return summary;
    },
    start: () => command({ type: 'start' }),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.connected) {
        command({ type: 'stop' });
        await nextMessage(child, 'stopped', 60_000).catch(() => undefined);
      }
      await stopChild(child, 10_000);
    },
  };
}
