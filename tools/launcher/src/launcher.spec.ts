import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { createFleet, FAST_TIMINGS, type Fleet } from '@fleet/device-sim';
import {
  databaseUrl,
  getJson,
  startTestRedis,
  TEST_POSTGRES_URL,
  waitFor,
  type TestRedis,
} from '@fleet/testing';
import { openFilesLimitOf } from './open-files';

const root = join(__dirname, '../../..');
/** The soft open-files limit the launcher is started with, as a login shell often has. */
const LOW_SOFT_LIMIT = 1024;

// `npm start` end to end: build output, a database that does not exist yet, every port picked by the OS.
describe('npm start', () => {
  const database = `fleet_launch_${process.pid}_${Date.now()}`;
  let redis: TestRedis;
  let launcher: ChildProcess;
  let output = '';
  let sql: Client;
  let fleet: Fleet | undefined;

  beforeAll(async () => {
    const build = spawnSync(process.execPath, [join(root, 'tools/build/build.js')], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    redis = await startTestRedis();
    // Through a shell that lowers the soft limit first (then `exec`s node: the launcher keeps the shell's pid).
    const main = join(root, 'dist/tools/launcher/src/main.js');
    launcher = spawn(
      '/bin/sh',
      ['-c', `ulimit -S -n ${LOW_SOFT_LIMIT}; exec "$0" "$@"`, process.execPath, main],
      {
        env: {
          PATH: process.env['PATH'],
          DATABASE_URL: databaseUrl(database, 'fleet_app'),
          MIGRATION_DATABASE_URL: databaseUrl(database),
          REDIS_URL: redis.url,
          HTTP_PORT: '0',
          MQTT_PORT: '0',
          MQTT_WS_PORT: '0',
          UDP_PORT: '0',
          LINK_PORT: '0',
          BIND_HOST: '127.0.0.1',
          DEVICE_SIGNING_KEYS: 'launcher-test-signing-key-0123',
          SERVICE_CREDENTIALS:
            'orchestrator:orchestrator-secret-0123456789,voice-worker:voice-secret-0123456789',
          ORCHESTRATOR__MQTT_PASSWORD: 'orchestrator-secret-0123456789',
          VOICE_WORKER__MQTT_PASSWORD: 'voice-secret-0123456789',
          // Long enough that a call asked right after the kill is asked while the broker is away.
          LAUNCHER_RESTART_DELAY_MS: '2000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    sql = new Client({ connectionString: databaseUrl(database) });
  });

  afterAll(async () => {
    await fleet?.stop();
    await sql.end().catch(() => undefined);
    if (launcher.exitCode === null) launcher.kill('SIGKILL');
    await redis.stop();
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  const portOf = (service: string) =>
    Number(new RegExp(`^\\s+${service}\\s+http://127\\.0\\.0\\.1:(\\d+)`, 'm').exec(output)![1]);
  const brokerPids = () =>
    [...output.matchAll(/launcher: broker started \(pid (\d+)/g)].map((m) => Number(m[1]));

  it('migrates a new database, brings all four services to healthy and prints the first admin’s way in once', async () => {
    await waitFor(() => output.includes('voice-fleet is up'), {
      timeoutMs: 60_000,
      what: `the banner; output so far:\n${output}`,
    });
    expect(output).toContain('created the database; applied');
    expect(output.match(/fk_[a-z0-9]{10}_[A-Za-z0-9_-]{43}/g)).toHaveLength(1);
    // The console sign-in link (it sets the admin's password), once; and how to bring simulated devices.
    expect(output.match(/http:\/\/127\.0\.0\.1:\d+\/welcome#token=[A-Za-z0-9_-]{43}/g)).toHaveLength(1);
    expect(output).toMatch(/npm run sim -- --devices 5 --ota-url http:\/\/127\.0\.0\.1:\d+\/xiaozhi\/ota\//);
    expect(output).toContain('A service that stops is restarted');
    const ports = [
      ...output.matchAll(/^\s+(broker|orchestrator|voice-worker|admin-api)\s+http:\/\/127\.0\.0\.1:(\d+)/gm),
    ];
    expect(ports.map((m) => m[1]).sort()).toEqual(['admin-api', 'broker', 'orchestrator', 'voice-worker']);
    for (const [, , port] of ports) {
      expect((await getJson(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    }
    await waitFor(() => output.includes('launcher: health: broker up'), { what: 'the health line' });
  }, 90_000); // the services start one after another: on a loaded machine that takes longer than Jest's 30 s

  it('runs the broker at its hard open-files limit when the shell that started it had a low soft one, and says so', () => {
    const [pid] = brokerPids();
    const limit = openFilesLimitOf(pid!);
    if (!limit) return; // no /proc here: nothing to read a limit from
    expect(limit.hard).toBeGreaterThan(LOW_SOFT_LIMIT);
    expect(limit.soft).toBe(limit.hard);
    expect(output).toContain(
      `launcher: broker started (pid ${pid}; open files ${limit.hard} (its hard limit))`,
    );
  });

  it('restarts a SIGKILLed broker while the admin API keeps answering, and loses no call', async () => {
    await sql.connect();
    const key = /fk_[a-z0-9]{10}_[A-Za-z0-9_-]{43}/.exec(output)![0];
    const api = `http://127.0.0.1:${portOf('admin-api')}`;
    const ask = async (mac: string) => {
      const response = await fetch(`${api}/api/v1/devices/${mac}/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'self.get_device_status', arguments: {}, reason: 'launcher test' }),
      });
      expect(response.status).toBe(202);
      return ((await response.json()) as { id: string }).id;
    };
    const callRow = async (id: string) =>
      (
        await sql.query<{ verdict: string | null; jsonrpc_id: number | null }>(
          'SELECT verdict, jsonrpc_id FROM call WHERE id = $1',
          [id],
        )
      ).rows[0];

    fleet = createFleet({
      count: 1,
      otaUrl: `http://127.0.0.1:${portOf('broker')}/xiaozhi/ota/`,
      timings: FAST_TIMINGS,
      relayTools: 0,
      macPrefix: '02:1a:0c',
      recordLimit: 1_000,
    });
    await fleet.start();
    const device = fleet.devices[0]!;
    await waitFor(
      async () =>
        (
          await sql.query(
            'SELECT 1 FROM device WHERE id = $1 AND online AND catalog_version_id IS NOT NULL',
            [device.mac],
          )
        ).rowCount === 1,
      { what: 'the simulated device online and discovered', timeoutMs: 30_000 },
    );

    // A call out to the device, its reply not yet given, when the broker dies.
    device.setFaults({ replyDelayMs: 3_000 });
    const inFlight = await ask(device.mac);
    const sent = await waitFor(async () => (await callRow(inFlight))?.jsonrpc_id ?? undefined, {
      what: 'the call sent',
    });
    await waitFor(() => device.observed.toolCallsReceived(sent) === 1, {
      what: 'the call at the device, its reply held',
    });

    const health: number[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const answer = await getJson(`${api}/healthz`).catch(() => ({ status: 0 }));
        health.push(answer.status);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const [killed] = brokerPids();
    process.kill(killed!, 'SIGKILL');
    await waitFor(() => /broker exited \(signal SIGKILL\); restarting it in 2\.0 s/.test(output), {
      what: 'the launcher reporting the death',
    });
    device.setFaults({ replyDelayMs: 0 });
    const askedMeanwhile = await ask(device.mac);
    expect(output).not.toMatch(/broker is back/); // asked while the broker was away

    await waitFor(() => /broker is back: healthy [\d.]+ s after it died \(restart 1\)/.test(output), {
      what: `the broker back; output:\n${output.slice(-3000)}`,
      timeoutMs: 60_000,
    });
    expect(output).toContain('health: broker DOWN, restarting, orchestrator up');
    // The health line follows "is back" in its own write: the output may not hold it yet.
    await waitFor(
      () => /health: broker up \(restarted 1×\), orchestrator up, voice-worker up, admin-api up/.test(output),
      { what: "the launcher's health line after the restart" },
    );
    const verdict = await waitFor(async () => (await callRow(askedMeanwhile))?.verdict ?? undefined, {
      what: 'the call asked while the broker was away sealed',
      timeoutMs: 60_000,
    });
    expect(verdict).toBe('verified');
    const sealed = await waitFor(async () => (await callRow(inFlight))?.verdict ?? undefined, {
      what: 'the call in flight at the kill sealed',
      timeoutMs: 60_000,
    });
    polling = false;
    await poll;

    // The call in flight was never sent again (its reply, given on the connection that replaced the dead one,
    // is never paired with it: sealed as what could be known); the admin API answered every health check.
    expect(sealed).toBe('no_response');
    expect(device.observed.toolCallsReceived(sent)).toBe(1);
    expect(health.length).toBeGreaterThan(10);
    expect(health.filter((status) => status !== 200)).toEqual([]);
    // The new broker runs with the raised limit too, on the ports the banner gave.
    const [, restarted] = brokerPids();
    expect(restarted).not.toBe(killed);
    const limit = openFilesLimitOf(restarted!);
    if (limit) expect(limit.soft).toBe(limit.hard);
    expect((await getJson(`http://127.0.0.1:${portOf('broker')}/healthz`)).status).toBe(200);
  }, 180_000);

  it('stops every service cleanly on Ctrl-C', async () => {
    await fleet?.stop();
    fleet = undefined;
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    launcher.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const service of ['broker', 'orchestrator', 'voice-worker', 'admin-api']) {
      expect(output).toMatch(new RegExp(`${service}\\s+info\\s+${service} stopped`));
    }
  });
});
