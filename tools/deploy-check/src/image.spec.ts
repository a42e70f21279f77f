import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  APP_ROLE,
  databaseUrl,
  getJson,
  startTestRedis,
  TEST_POSTGRES_URL,
  waitFor,
  type TestRedis,
} from '@fleet/testing';
import { runImageCommand, runImageJob, type ImageProcess } from '../test/image-process';
import { preparePrunedInstall, type PrunedInstall } from '../test/pruned-install';
import { COMMANDS, ROOT, SERVICES } from './deploy-files';

// Docker cannot run here, so the image is proven another way: its runtime stage is rebuilt from deploy/Dockerfile
// (same COPY lines, same `npm ci` flags, same NODE_ENV, same user), and every command the manifests give it runs
// from there, in production mode, against a real Postgres and Redis.

const SIGNING_KEY = 'deploy-check-signing-key-0123456789';
const AUDIT_SIGNING_KEY = Buffer.alloc(32, 7).toString('base64');
const MCP_STATE_KEY = Buffer.alloc(32, 9).toString('base64');
const EFUSE_WRAPPING_KEY = 'de'.repeat(32);
const SECRETS = {
  orchestrator: 'deploy-check-orchestrator-0123',
  'voice-worker': 'deploy-check-voice-worker-0123',
};

describe('the image, rebuilt as a pruned production install', () => {
  let install: PrunedInstall;
  let redis: TestRedis;
  const database = `deploy_check_${process.pid}_${randomBytes(3).toString('hex')}`;
  const running = new Map<string, ImageProcess>();
  const mqttPort = async () => (await running.get('broker')!.ports)['mqtt']!;

  /** What compose.yaml and the Kubernetes manifests give each container besides the image's own ENV. */
  const containerEnv = async (service: (typeof SERVICES)[number]): Promise<Record<string, string>> => {
    const common = {
      DATABASE_URL: databaseUrl(database, APP_ROLE),
      REDIS_URL: redis.url,
      QUEUE_PREFIX: 'fleet',
      BIND_HOST: '127.0.0.1',
      HTTP_PORT: '0',
      LOG_LEVEL: 'info',
    };
    switch (service) {
      case 'broker':
        return {
          ...common,
          BROKER_ID: 'broker-0',
          MQTT_PORT: '0',
          MQTT_WS_PORT: '0',
          UDP_PORT: '0',
          LINK_PORT: '0',
          PUBLIC_HOST: '127.0.0.1',
          DEVICE_SIGNING_KEYS: SIGNING_KEY,
          EFUSE_WRAPPING_KEYS: EFUSE_WRAPPING_KEY,
          SERVICE_CREDENTIALS: Object.entries(SECRETS)
            .map(([name, secret]) => `${name}:${secret}`)
            .join(','),
        };
      case 'orchestrator':
      case 'voice-worker':
        return {
          ...common,
          MQTT_URL: `mqtt://127.0.0.1:${await mqttPort()}`,
          MQTT_PASSWORD: SECRETS[service],
        };
      case 'admin-api':
        return { ...common, AUDIT_SIGNING_KEY, MCP_STATE_KEY, EFUSE_WRAPPING_KEYS: EFUSE_WRAPPING_KEY };
    }
  };

  beforeAll(async () => {
    install = preparePrunedInstall();
    redis = await startTestRedis();
    console.log(
      `deploy-check: pruned install (${install.stage.install.join(' ')}) ` +
        (install.installedNow
          ? `made in ${install.installMs} ms`
          : `from the cache (made in ${install.installMs} ms)`) +
        ` at ${install.dir}`,
    );
  }, 300_000);

  afterAll(async () => {
    await Promise.all([...running.values()].map((p) => p.stop('SIGKILL')));
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    await redis?.stop();
    install?.remove();
  });

  it('holds production dependencies only: nothing of the dev-only tree, not even the optional peers', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const installed = JSON.parse(
      readFileSync(join(install.modulesDir, 'node_modules/.package-lock.json'), 'utf8'),
    ) as { packages: Record<string, unknown> };
    const names = Object.keys(installed.packages);
    expect(names.length).toBeGreaterThan(100);
    expect(names.filter((name) => lock.packages[name]?.dev)).toEqual([]);
    // the optional peers of @prisma/client that --omit=dev alone would still install (Dockerfile, runtime stage)
    for (const tool of ['prisma', 'typescript', '@prisma/dev', 'jest', '@swc/core', 'nx', 'eslint']) {
      expect([tool, names.includes(`node_modules/${tool}`)]).toEqual([tool, false]);
    }
    expect(install.stage.env['NODE_ENV']).toBe('production');
    expect(install.stage.user).not.toBe('root');
  });

  it('migrates an empty server with the migrate command: creates the database, then finds nothing to do', async () => {
    const env = { MIGRATION_DATABASE_URL: databaseUrl(database) };
    const first = await runImageJob(install, COMMANDS.migrate, env);
    expect(first).toMatchObject({ code: 0 });
    expect(first.output).toMatch(/created the database; applied \d+ migration/);
    const again = await runImageJob(install, COMMANDS.migrate, env);
    expect(again).toMatchObject({ code: 0 });
    expect(again.output).not.toMatch(/applied \d+ migration/);

    const client = new Client({ connectionString: databaseUrl(database) });
    await client.connect();
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL',
    );
    await client.end();
    const migrations = readdirSync(join(ROOT, 'prisma/migrations'), { withFileTypes: true }).filter((d) =>
      d.isDirectory(),
    );
    expect(rows[0]!.n).toBe(migrations.length);
  }, 60_000);

  it('creates the first admin with the create-admin command, once', async () => {
    const env = { DATABASE_URL: databaseUrl(database, APP_ROLE), ADMIN_EMAIL: 'ops@example.com' };
    const first = await runImageJob(install, COMMANDS['create-admin'], env);
    expect(first).toMatchObject({ code: 0 });
    expect(first.output).toMatch(/admin ops@example.com created; API key \(shown once\): \S+/);
    expect((await runImageJob(install, COMMANDS['create-admin'], env)).output).toMatch(
      /operators exist already/,
    );
  }, 60_000);

  it.each(SERVICES)(
    'runs %s with the image command in production mode and answers /healthz with 200',
    async (service) => {
      const processHandle = runImageCommand(install, COMMANDS[service], await containerEnv(service));
      running.set(service, processHandle);
      let timer: NodeJS.Timeout | undefined;
      const ports = await Promise.race([
        processHandle.ports,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`${service} did not listen:\n${processHandle.logs.join('\n')}`)),
            30_000,
          );
        }),
      ]).finally(() => clearTimeout(timer)); // a pending timer would hold Jest open for 30 s
      const health = await waitFor(
        async () => {
          const answer = await getJson(`http://127.0.0.1:${ports['http']}/healthz`);
          return answer.status === 200 && answer;
        },
        { what: `${service} /healthz 200`, timeoutMs: 20_000 },
      );
      expect(health.body).toMatchObject({ status: 'ok' });
    },
    60_000,
  );

  it('stops every service on SIGTERM with exit code 0', async () => {
    // the dependants first, as a rollout or `docker compose down` would
    for (const service of [...SERVICES].reverse()) {
      expect([service, await running.get(service)!.stop('SIGTERM')]).toEqual([service, 0]);
    }
  }, 60_000);
});
