// `npm start`: migrate, start the four services, wait until each is healthy, say where they listen.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describeMigration, runMigrations } from '@fleet/db';
import { banner, type RunningService } from './banner';
import { loadLauncherConfig } from './config';
import { bootstrapFirstAdmin } from './first-start';
import { parseLauncherArgs } from './launcher-args';
import { formatLogLine } from './log-format';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { SERVICES } from './services';
import { waitHealthy } from './wait-healthy';

const HEALTHY_WITHIN_MS = 45_000;

async function main(): Promise<void> {
  const started = Date.now();
  const args = parseLauncherArgs(process.argv.slice(2));
  const config = loadLauncherConfig();
  const migration = await runMigrations(config.MIGRATION_DATABASE_URL, config.migrationsDir);
  console.log(`launcher: ${describeMigration(migration)}`);
  const first = await bootstrapFirstAdmin(config.DATABASE_URL);

  const children: ServiceProcess[] = [];
  let demo: ReturnType<typeof spawn> | undefined;
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGTERM');
    demo?.kill('SIGTERM');
    await Promise.all(children.map((c) => c.exited));
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const running: RunningService[] = [];
  const shared: Record<string, string> = {};
  for (const service of SERVICES) {
    const child = startServiceProcess(service.name, service.entry, {
      distDir: config.distDir,
      pretty: config.LOG_FORMAT === 'pretty',
      env: config.envFor(service.name, shared),
    });
    children.push(child);
    void child.exited.then((code) => {
      if (stopping) return;
      console.error(`launcher: ${service.name} exited (code ${code}); stopping the others`);
      void stopAll(code || 1);
    });
    const ports = await Promise.race([child.ports, child.exited.then(() => undefined)]);
    if (!ports) return; // the exit handler above reports and stops the rest
    running.push({ name: service.name, ports });
    if (service.name === 'broker' && !config.mqttUrlConfigured && ports['mqtt']) {
      shared['MQTT_URL'] = `mqtt://127.0.0.1:${ports['mqtt']}`;
    }
  }

  const health = await Promise.all(
    running.map(async (s) => ({
      name: s.name,
      ...(await waitHealthy(`http://127.0.0.1:${s.ports['http']}/healthz`, HEALTHY_WITHIN_MS)),
    })),
  );
  for (const h of health.filter((x) => !x.ok)) {
    console.error(`launcher: ${h.name} is not healthy yet: ${h.detail}`);
  }
  console.log(banner(running, Date.now() - started, first, args.demoDevices));
  const brokerHttp = running.find((s) => s.name === 'broker')?.ports['http'];
  if (args.demoDevices > 0 && brokerHttp) {
    // The simulator's own CLI (npm run sim), as a child: its devices reach the platform as real ones would.
    demo = spawn(
      process.execPath,
      [
        join(config.distDir, 'tools/device-sim/src/cli.js'),
        ...['--devices', String(args.demoDevices)],
        ...['--ota-url', `http://127.0.0.1:${brokerHttp}/xiaozhi/ota/`],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    for (const stream of [demo.stdout, demo.stderr])
      stream?.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          process.stdout.write(formatLogLine('device-sim', line) + '\n');
      });
  }
}

main().catch((err: Error) => {
  console.error(`launcher: ${err.message}`);
  process.exit(1);
});
