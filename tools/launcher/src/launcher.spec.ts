import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  databaseUrl,
  getJson,
  startTestRedis,
  TEST_POSTGRES_URL,
  waitFor,
  type TestRedis,
} from '@fleet/testing';

const root = join(__dirname, '../../..');

// `npm start` end to end: build output, a database that does not exist yet, every port picked by the OS.
describe('npm start', () => {
  const database = `fleet_launch_${process.pid}_${Date.now()}`;
  let redis: TestRedis;
  let launcher: ChildProcess;
  let output = '';

  beforeAll(async () => {
    const build = spawnSync(process.execPath, [join(root, 'tools/build/build.js')], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    redis = await startTestRedis();
    launcher = spawn(process.execPath, [join(root, 'dist/tools/launcher/src/main.js')], {
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
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });

  afterAll(async () => {
    if (launcher.exitCode === null) launcher.kill('SIGKILL');
    await redis.stop();
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

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
    const ports = [
      ...output.matchAll(/^\s+(broker|orchestrator|voice-worker|admin-api)\s+http:\/\/127\.0\.0\.1:(\d+)/gm),
    ];
    expect(ports.map((m) => m[1]).sort()).toEqual(['admin-api', 'broker', 'orchestrator', 'voice-worker']);
    for (const [, , port] of ports) {
      expect((await getJson(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    }
  }, 90_000); // the services start one after another: on a loaded machine that takes longer than Jest's 30 s

  it('stops every service cleanly on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    launcher.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const service of ['broker', 'orchestrator', 'voice-worker', 'admin-api']) {
      expect(output).toMatch(new RegExp(`${service}\\s+info\\s+${service} stopped`));
    }
  });
});
