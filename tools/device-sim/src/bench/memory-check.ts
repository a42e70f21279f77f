// How much memory a simulated device costs (DESIGN §7: 10,000 devices within about 1 GB on 2 cores).
// Run after `npm run build`:
//   node --expose-gc dist/tools/device-sim/src/bench/memory-check.js --devices 10000 [--broker 127.0.0.1:1883]
// The broker must run in another process (e.g. the machine's Mosquitto); the OTA server is forked here.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createFleet } from '../fleet/fleet';
import { summaryLine } from '../fleet/fleet-summary';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '2000' },
    broker: { type: 'string', default: '127.0.0.1:1883' },
    'boot-rate': { type: 'string', default: '1000' },
    'settle-sec': { type: 'string', default: '10' },
    'broker-pid': { type: 'string' },
  },
});

const MB = 1048576;
const gc = (globalThis as { gc?: () => void }).gc;

function memory(): NodeJS.MemoryUsage {
  gc?.();
  gc?.();
  return process.memoryUsage();
}

function rssOf(pid: string | undefined): string {
  if (pid === undefined) return 'n/a';
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS'));
  return line?.replace(/\s+/g, ' ').replace('VmRSS: ', '') ?? 'n/a';
}

function startOtaServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(join(__dirname, 'ota-server-process.js'), ['--mqtt', values.broker], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    execArgv: [],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) =>
      resolve({ child, url: (JSON.parse(data.toString()) as { url: string }).url }),
    );
    child.once('exit', (code) => reject(new Error(`OTA server exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const count = Number(values.devices);
  if (!gc) process.stdout.write('(run with --expose-gc for stable numbers)\n');
  const ota = await startOtaServer();
  const before = memory();
  const fleet = createFleet({
    count,
    otaUrl: ota.url,
    bootsPerSecond: Number(values['boot-rate']),
    recordLimit: 0,
    reconnectJitter: 0.2,
  });
  const started = Date.now();
  void fleet.start();
  const connected = await fleet.waitFor((s) => s.connected === count, 15 * 60_000, 250);
  const connectMs = Date.now() - started;
  await new Promise((resolve) => setTimeout(resolve, Number(values['settle-sec']) * 1000));
  const after = memory();
  const per = (key: keyof NodeJS.MemoryUsage) =>
    `${((after[key] - before[key]) / count / 1024).toFixed(1)} KB`;
  const total = (m: NodeJS.MemoryUsage, key: keyof NodeJS.MemoryUsage) => `${(m[key] / MB).toFixed(0)} MB`;
  const lines = [
    `devices            ${count} connected in ${(connectMs / 1000).toFixed(1)} s (boot ramp ${values['boot-rate']}/s)`,
    `fleet              ${summaryLine(connected)}`,
    `heap used          ${total(before, 'heapUsed')} → ${total(after, 'heapUsed')}   per device ${per('heapUsed')}`,
    `rss                ${total(before, 'rss')} → ${total(after, 'rss')}   per device ${per('rss')}`,
    `external+buffers   ${total(after, 'external')} / ${total(after, 'arrayBuffers')}   per device ${per('external')}`,
    `peak rss           ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (during the boot ramp)`,
    `broker rss         ${rssOf(values['broker-pid'])}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await fleet.stop();
  ota.child.kill('SIGTERM');
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
