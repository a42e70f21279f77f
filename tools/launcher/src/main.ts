// `npm start`: migrate, start the four services, wait until each is healthy, say where they listen; then keep
// them running: a service that dies is restarted with a backoff while the others keep serving.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describeMigration, runMigrations } from '@fleet/db';
import { banner, type RunningService } from './banner';
import { loadLauncherConfig } from './config';
import { bootstrapFirstAdmin } from './first-start';
import { healthLine } from './health-line';
import { parseLauncherArgs } from './launcher-args';
import { formatLogLine } from './log-format';
import { startServiceProcess } from './service-process';
import { ServiceSupervisor } from './service-supervisor';
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

  const supervisors: ServiceSupervisor[] = [];
  const printHealth = () => console.log(`launcher: ${healthLine(supervisors)}`);
  let demo: ReturnType<typeof spawn> | undefined;
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    demo?.kill('SIGTERM');
    await Promise.all(supervisors.map((s) => s.stop()));
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const running: RunningService[] = [];
  const shared: Record<string, string> = {};
  for (const service of SERVICES) {
    const env = { ...shared };
    const supervisor = new ServiceSupervisor(service, config.identityFor(service), {
      spawn: (extra) =>
        startServiceProcess(service.name, service.entry, {
          distDir: config.distDir,
          pretty: config.LOG_FORMAT === 'pretty',
          env: config.envFor(service.name, { ...env, ...extra }),
        }),
      waitHealthy: (url) => waitHealthy(url, HEALTHY_WITHIN_MS),
      policy: config.restartPolicy,
      log: (line) => console.log(`launcher: ${line}`),
      changed: printHealth,
    });
    supervisors.push(supervisor);
    let ports: Record<string, number>;
    try {
      ports = await supervisor.start();
    } catch (err) {
      // It never listened (a bad variable, a port in use): restarting would only repeat it. Its log says why.
      console.error(`launcher: ${(err as Error).message}; stopping the others`);
      return stopAll(1);
    }
    running.push({ name: service.name, ports });
    if (service.name === 'broker' && !config.mqttUrlConfigured && ports['mqtt']) {
      shared['MQTT_URL'] = `mqtt://127.0.0.1:${ports['mqtt']}`;
    }
  }

  const health = await Promise.all(
    supervisors.map(async (s) => ({ name: s.name, ...(await s.firstHealth()) })),
  );
  for (const h of health.filter((x) => !x.ok)) {
    console.error(`launcher: ${h.name} is not healthy yet: ${h.detail}`);
  }
  console.log(banner(running, Date.now() - started, first, args.demoDevices, config.restartPolicy));
  printHealth();
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
