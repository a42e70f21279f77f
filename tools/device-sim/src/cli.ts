#!/usr/bin/env node
// npm run sim -- --devices N --ota-url http://127.0.0.1:8081/xiaozhi/ota/ [options]: a simulated fleet.
import pino from 'pino';
import { parseCliOptions, type CliOptions } from './cli/cli-options';
import { startListenAiCli } from './cli/listenai-cli';
import { loadStateFile, saveStateFile } from './cli/state-file';
import { attachStdinControl } from './cli/stdin-control';
import { startFakeOtaServer } from './fake-ota/fake-ota-server';
import { efuseCsv, efuseFor } from './device/efuse';
import { macFor } from './device/identity';
import { createFleet } from './fleet/fleet';
import { summaryLine } from './fleet/fleet-summary';

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseCliOptions(argv);
  if (!parsed.ok) {
    process.stdout.write(parsed.message);
    return argv.includes('--help') ? 0 : 2;
  }
  const o = parsed.options;
  if (o.printEfuseCsv && o.efuseSeed !== undefined) {
    const seed = o.efuseSeed;
    const macs = Array.from({ length: o.devices }, (_, i) => macFor(o.macPrefix, o.firstIndex + i));
    process.stdout.write(efuseCsv(macs.map((mac) => efuseFor(mac, seed))));
    return 0;
  }
  const say = (line: string) => process.stdout.write(`[device-sim] ${line}\n`);
  if (o.dialect === 'listenai') return runListenAi(o, say);
  const localOta = o.localOta
    ? await startFakeOtaServer({
        mqtt: o.localOta,
        signingKey: o.signingKey,
        record: false,
        port: o.localOtaPort,
      })
    : undefined;
  const otaUrl = localOta?.url ?? o.otaUrl ?? '';
  if (localOta)
    say(`local OTA server at ${localOta.url}, sending devices to ${o.localOta?.host}:${o.localOta?.port}`);
  const saved = o.stateFile ? await loadStateFile(o.stateFile) : {};
  const fleet = createFleet({
    count: o.devices,
    otaUrl,
    macPrefix: o.macPrefix,
    firstIndex: o.firstIndex,
    relayTools: o.relayTools,
    bootsPerSecond: o.bootRate,
    timeScale: o.timeScale,
    defaultKeepaliveSec: o.keepaliveSec,
    reconnectJitter: o.reconnectJitter,
    faults: o.faults,
    nvs: saved,
    ...(o.efuseSeed !== undefined ? { efuseSeed: o.efuseSeed } : {}),
    perDevice: () => ({ firmware: { version: o.firmwareVersion } }),
    ...(o.verbose ? { logger: pino({ level: 'debug' }) } : {}),
  });
  say(
    `${o.devices} devices → ${otaUrl} at ${o.bootRate}/s${Object.keys(o.faults).length ? `, faults ${JSON.stringify(o.faults)}` : ''}`,
  );
  const started = Date.now();
  void fleet.start();
  attachStdinControl(fleet, say);

  const save = async () => {
    // Devices of the file that this run did not start are kept as they were.
    if (o.stateFile) await saveStateFile(o.stateFile, { ...saved, ...fleet.exportNvs() });
  };
  const timer = setInterval(() => {
    const mem = process.memoryUsage();
    const extra = ` | ${Math.round((Date.now() - started) / 1000)} s heap ${mb(mem.heapUsed)} rss ${mb(mem.rss)}`;
    say(summaryLine(fleet.summary(), extra));
    save().catch((err: unknown) => say(`state file not saved: ${(err as Error).message}`));
  }, o.summaryEverySec * 1000);

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(timer);
  say(`stopping: ${summaryLine(fleet.summary())}`);
  await fleet.stop();
  await save();
  await localOta?.close();
  return 0;
}

/** ListenAI devices have no OTA, NVS or boots: a fleet on the link until SIGINT/SIGTERM. */
async function runListenAi(o: CliOptions, say: (line: string) => void): Promise<number> {
  const fleet = await startListenAiCli(o, say);
  const timer = setInterval(() => say(fleet.summary()), o.summaryEverySec * 1000);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(timer);
  say(`stopping: ${fleet.summary()}`);
  await fleet.stop();
  return 0;
}

function mb(bytes: number): string {
  return `${Math.round(bytes / 1048576)} MB`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`device-sim: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
