// A simulated ListenAI fleet in a process of its own, as load/fleet-process.ts is for xiaozhi devices: its CPU
// and memory are counted apart from the broker's. Options as JSON in argv[2], then IPC messages.
import { readFileSync } from 'node:fs';
import { ListenAiFleet } from '@fleet/device-sim';
import type { SimFleetSummary } from '../platform/sim-fleet';
import type { FleetProcessCommand } from './fleet-process';

export interface ListenAiFleetProcessOptions {
  /** JSON {"<mac>": "<token>"} (register-bench-fleet.ts writes it). */
  tokensFile: string;
  linkUrl: string;
  /** 0: every device dials at once. */
  connectsPerSecond: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as ListenAiFleetProcessOptions;
const tokens = JSON.parse(readFileSync(options.tokensFile, 'utf8')) as Record<string, string>;
type Message = { type: 'ready' } | { type: 'progress'; summary: SimFleetSummary } | { type: 'stopped' };
const send = (message: Message) => process.send?.(message);

const fleet = new ListenAiFleet({
  devices: Object.entries(tokens).map(([mac, token]) => ({ mac, token })),
  linkUrls: [options.linkUrl],
  ...(options.connectsPerSecond > 0 ? { connectsPerSecond: options.connectsPerSecond } : {}),
  recordLimit: 0,
});

let timer: NodeJS.Timeout | undefined;
const report = () => {
  const s = fleet.summary();
  send({ type: 'progress', summary: { devices: s.devices, connected: s.linked, connects: s.links } });
};

process.on('message', (command: FleetProcessCommand) => {
  switch (command.type) {
    case 'start':
      fleet.start();
      timer = setInterval(report, 200);
      return;
    case 'flap':
      for (const device of fleet.devices) device.flap();
      return;
    case 'stop':
      if (timer) clearInterval(timer);
      report();
      void fleet.stop().then(() => {
        send({ type: 'stopped' });
        process.disconnect();
      });
      return;
  }
});
send({ type: 'ready' });
