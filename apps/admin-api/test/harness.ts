import { Pool } from 'pg';
import { generateApiKey, hashPassword, type Role } from '@fleet/auth';
import { createLogger } from '@fleet/telemetry';
import { createTestDatabase, startTestRedis, type TestDatabase, type TestRedis } from '@fleet/testing';
import { startAdminApi, type AdminApiHandle } from '../src/admin-api-app';
import { loadAdminApiConfig } from '../src/config';

export interface Person {
  operatorId: string;
  email: string;
  key: string;
}

/** A JSON answer, read loosely as pg rows are (eslint.config.mjs) and checked with expect(). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Answer<T = Json> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface Harness {
  db: TestDatabase;
  redis: TestRedis;
  api: AdminApiHandle;
  /** The application's role (what the API itself connects as). */
  pool: Pool;
  /** The owner role, for fixtures the application may not write (evidence tampering). */
  owner: Pool;
  baseUrl: string;
  queuePrefix: string;
  person(role: Role, opts?: { email?: string; password?: string }): Promise<Person>;
  addKey(operatorId: string, role: Role): Promise<string>;
  request<T = Json>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    opts?: { key?: string; body?: unknown; headers?: Record<string, string>; raw?: Buffer },
  ): Promise<Answer<T>>;
  /** A second API on the same database and Redis (another replica, or this one after a restart). */
  replica(): Promise<{ baseUrl: string; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

let emails = 0;

/** A real API on a fresh database and its own Redis, with helpers to make people and call it. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const [db, redis] = await Promise.all([createTestDatabase(), startTestRedis()]);
  const queuePrefix = 'test';
  const start = (overrides: Record<string, string> = {}) =>
    startAdminApi(
      loadAdminApiConfig({
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: queuePrefix,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        LOG_LEVEL: 'silent',
        // Only the webhook tests run the delivery worker: an idle BullMQ worker only slows every stop.
        WEBHOOK_WORKER: 'false',
        // Test receivers listen on loopback, which webhooks may not reach unless allowed.
        WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
        // Every JSON answer is parsed with its @fleet/api-contract schema: a drift answers 500 (DESIGN §8).
        VALIDATE_ANSWERS: 'true',
        // No orchestrator runs here to pre-flight a user-only call: answer at once (tests pass pre-flight
        // themselves with @fleet/testing passPreflight); platform tests with an orchestrator set their own.
        CALL_PREFLIGHT_WAIT_MS: '0',
        ...env,
        ...overrides,
      }),
      createLogger('admin-api-test', 'silent'),
    );
  const api = await start();
  const pool = new Pool({ connectionString: db.url, max: 4 });
  const owner = new Pool({ connectionString: db.ownerUrl, max: 2 });

  const addKey = async (operatorId: string, role: Role): Promise<string> => {
    const key = generateApiKey();
    await pool.query(
      `INSERT INTO api_key (id, operator_id, name, prefix, secret_hash, role) VALUES (gen_random_uuid(), $1, 'test', $2, $3, $4)`,
      [operatorId, key.prefix, key.secretHash, role],
    );
    return key.plaintext;
  };

  return {
    db,
    redis,
    api,
    pool,
    owner,
    queuePrefix,
    baseUrl: `http://127.0.0.1:${api.ports.http}`,
    addKey,
    async replica() {
      const other = await start({ HTTP_PORT: '0' });
      return { baseUrl: `http://127.0.0.1:${other.ports.http}`, stop: () => other.stop() };
    },
    async person(role, opts = {}) {
      const email = opts.email ?? `person${++emails}-${process.pid}@example.com`;
      const passwordHash = opts.password ? await hashPassword(opts.password) : null;
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO operator (id, email, name, role, password_hash) VALUES (gen_random_uuid(), $1, $1, $2, $3) RETURNING id`,
        [email, role, passwordHash],
      );
      const operatorId = rows[0]!.id;
      return { operatorId, email, key: await addKey(operatorId, role) };
    },
    async request(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers['authorization'] = `Bearer ${opts.key}`;
      let payload: string | Buffer | undefined;
      if (opts.raw) {
        payload = opts.raw;
        headers['content-type'] ??= 'application/octet-stream';
      } else if (opts.body !== undefined) {
        payload = JSON.stringify(opts.body);
        headers['content-type'] = 'application/json';
      }
      const response = await api.app.inject({
        method,
        url,
        headers,
        ...(payload !== undefined ? { payload } : {}),
      });
      let body: unknown = response.body;
      try {
        body = JSON.parse(response.body);
      } catch {
        // not JSON (CSV, HTML): the text is the body
      }
      return {
        status: response.statusCode,
        body: body as never,
        headers: response.headers,
        text: response.body,
      };
    },
    async stop() {
      await api.stop();
      await Promise.all([pool.end(), owner.end()]);
      await Promise.all([db.drop(), redis.stop()]);
    },
  };
}

/** Inserts `count` devices in one statement: MACs a0:00:00:xx:xx:xx numbered from `start`. */
export async function insertDevices(
  pool: Pool,
  count: number,
  opts: { start?: number; board?: string; firmware?: string; online?: boolean; chip?: string } = {},
): Promise<string[]> {
  const start = opts.start ?? 0;
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO device (id, client_id, board, firmware_version, online, chip_model, updated_at)
     SELECT regexp_replace(lpad(to_hex(175921860444160 + n), 12, '0'), '(..)(?!$)', '\\1:', 'g'),
            'client-' || n, $3, $4, $5, $6, now()
       FROM generate_series($1::bigint, $1::bigint + $2 - 1) AS n
     RETURNING id`,
    [
      start,
      count,
      opts.board ?? 'bread-compact-wifi',
      opts.firmware ?? '1.6.0',
      opts.online ?? false,
      opts.chip ?? 'esp32s3',
    ],
  );
  return rows.map((r) => r.id).sort();
}
