import { join } from 'node:path';
import { z } from 'zod';
import { timeZoneSchema } from '@fleet/domain';
import {
  auditSigningEnv,
  commonEnv,
  databaseEnv,
  efuseWrappingEnv,
  envBoolean,
  envInt,
  envList,
  envPort,
  envUrl,
  findWorkspaceRoot,
  loadConfig,
  redisEnv,
  resolveEfuseWrappingKeys,
  resolveSealPublicKeys,
  sealKeysEnv,
  tracingEnv,
} from '@fleet/config';
import { privateKeyFromText, SealKeyring, sealSigner } from '@fleet/audit-export';
import { LOOPBACK_ORIGINS, parseOriginPattern } from './mcp/origin-policy';
import { parseCidr } from './webhooks/webhook-target-policy';

const optionalUrl = z.url({ protocol: /^https?$/ }).optional();

const oauthClientsSchema = z.record(
  z.string().min(1).max(200),
  z.strictObject({
    operator: z.email(),
    role: z.enum(['viewer', 'operator']),
    groups: z.array(z.uuid()).optional(),
  }),
);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// The only place the admin API reads process.env.
const schema = z
  .object({
    ...commonEnv,
    ...databaseEnv,
    ...redisEnv,
    ...tracingEnv,
    ...efuseWrappingEnv,
    BIND_HOST: z.string().default('0.0.0.0'),
    HTTP_PORT: envPort(8080),
    /**
     * Believe X-Forwarded-For (the API sits behind a reverse proxy that sets it). Off by default: otherwise any
     * client could name its own address in audit events and slip past the per-address sign-in throttle.
     */
    TRUST_PROXY: envBoolean(false),
    /** How long a signed-in session lasts. */
    SESSION_TTL_S: envInt(12 * 3600, { min: 60, max: 30 * 24 * 3600 }),
    /** Mark the session cookie Secure (the API is reached over HTTPS); on by default in production. */
    SESSION_COOKIE_SECURE: z.enum(['true', 'false']).optional(),
    /**
     * Requests one credential (an API key, a session) and one client address may make per RATE_LIMIT_WINDOW_S,
     * counted in Redis across replicas; past either, 429 with Retry-After. /healthz and /metrics are not counted.
     */
    RATE_LIMIT_PER_KEY: envInt(200, { min: 1 }),
    RATE_LIMIT_PER_ADDRESS: envInt(600, { min: 1 }),
    RATE_LIMIT_WINDOW_S: envInt(1, { min: 1, max: 3600 }),
    /** Failed sign-ins per email and address within 15 minutes before sign-in is refused. */
    LOGIN_MAX_FAILURES: envInt(10, { min: 1 }),
    /** OpenID Connect: sign-in through an organisation's provider, off unless an issuer is set. */
    OIDC_ISSUER: optionalUrl,
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** The API's own callback as registered at the provider: `<public API URL>/api/v1/auth/oidc/callback`. */
    OIDC_REDIRECT_URL: optionalUrl,
    OIDC_SCOPES: z.string().default('openid email profile'),
    /** Role of a person who signs in through OIDC without an account; unset: only existing operators. */
    OIDC_NEW_OPERATOR_ROLE: z.enum(['viewer', 'operator']).optional(),
    /** Where the browser goes after an OIDC sign-in (the console); unset: the callback answers JSON. */
    OIDC_SUCCESS_REDIRECT: optionalUrl,
    /** Allow a provider on plain http (development and tests only). */
    OIDC_ALLOW_HTTP: envBoolean(false),
    /** How long an operator's user-only call waits for another person's approval. */
    CALL_APPROVAL_TTL_S: envInt(3600, { min: 60, max: 30 * 24 * 3600 }),
    /**
     * How long asking for a user-only call waits for the orchestrator's pre-flight (DESIGN §4): a refusal is
     * answered as the sealed verdict, a pass with the approval it opened; past it, the state as it stands.
     */
    CALL_PREFLIGHT_WAIT_MS: envInt(3000, { min: 0, max: 30_000 }),
    /** Announcements: the text's largest size in UTF-8 bytes (a device's alert line and a short speech). */
    ANNOUNCE_MAX_BYTES: envInt(512, { min: 16, max: 4000 }),
    /** Announcements one device may be sent, and one person may send, per ANNOUNCE_RATE_WINDOW_S (Redis). */
    ANNOUNCE_RATE_PER_DEVICE: envInt(10, { min: 1 }),
    ANNOUNCE_RATE_PER_SENDER: envInt(10, { min: 1 }),
    ANNOUNCE_RATE_WINDOW_S: envInt(60, { min: 1, max: 24 * 3600 }),
    /**
     * An admin's rule for a second person: announcements to more than this many devices wait for another person's
     * approval (0: every announcement; unset: never by count), and so do those asked outside
     * ANNOUNCE_APPROVAL_HOURS (`08:00-20:00`, in ANNOUNCE_APPROVAL_TIME_ZONE; unset: any time).
     */
    /** Run announcement schedules in this replica (a run is taken by one replica), looking this often. */
    ANNOUNCE_SCHEDULER: envBoolean(true),
    ANNOUNCE_SCHEDULE_TICK_MS: envInt(1000, { min: 100, max: 60_000 }),
    ANNOUNCE_APPROVAL_ABOVE_DEVICES: z.coerce.number().int().min(0).optional(),
    ANNOUNCE_APPROVAL_HOURS: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM-HH:MM, e.g. 08:00-20:00')
      .transform((v) => ({ from: v.slice(0, 5), to: v.slice(6, 11) }))
      .optional(),
    ANNOUNCE_APPROVAL_TIME_ZONE: timeZoneSchema.default('UTC'),
    /** How long a campaign waits for approval once started. */
    CAMPAIGN_APPROVAL_TTL_S: envInt(24 * 3600, { min: 60, max: 30 * 24 * 3600 }),
    /** Largest firmware image accepted by POST /firmware. */
    FIRMWARE_MAX_BYTES: envInt(16 * 1024 * 1024, { min: 1024 }),
    /** Run the webhook delivery worker in this process. */
    WEBHOOK_WORKER: envBoolean(true),
    WEBHOOK_TIMEOUT_MS: envInt(10_000, { min: 100 }),
    /**
     * Addresses webhooks may reach although they are loopback, private or link-local (v4 and v6): IPs or CIDR
     * ranges, comma-separated. Empty: webhooks reach public addresses only.
     */
    WEBHOOK_ALLOWED_TARGETS: envList().superRefine((entries, ctx) => {
      for (const entry of entries) {
        try {
          parseCidr(entry);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
        }
      }
    }),
    WEBHOOK_CONCURRENCY: envInt(4, { min: 1, max: 100 }),
    /** Comment lines on idle server-sent event streams, so proxies keep them open. */
    SSE_HEARTBEAT_MS: envInt(15_000, { min: 100 }),
    /** Base URL devices download firmware from (the broker's device HTTP), for the registry's answers. */
    PUBLIC_HTTP_URL: envUrl('http://127.0.0.1:8081', ['http:', 'https:']),
    /** Where ListenAI devices open their link (the broker's), told to the operator who registers one. */
    PUBLIC_LINK_URL: envUrl('ws://127.0.0.1:8086/v1/interaction', ['ws:', 'wss:']),
    /** MCP endpoint (`/mcp`): how long a tool call waits for its verdict before answering with the call's state. */
    MCP_CALL_WAIT_S: envInt(25, { min: 0, max: 600 }),
    /**
     * MCP 2026-07-28 with the tasks extension: how long a tool call may take before it is answered as a task
     * instead (a call that waits for a person is one at once).
     */
    MCP_TASK_BUDGET_MS: envInt(2000, { min: 0, max: 60_000 }),
    /**
     * Key (32+ bytes, hex or base64) that signs the `requestState` /mcp hands a client (MCP 2026-07-28);
     * required in production, and the same on every replica. Unset in development: a random key per process.
     */
    MCP_STATE_KEY: z.string().min(1).optional(),
    /** How long a `requestState` may come back. */
    MCP_STATE_TTL_S: envInt(600, { min: 10, max: 24 * 3600 }),
    /**
     * The console's public origin (where approval and evidence links point, e.g. https://fleet.example.com). Unset:
     * the origin the request reached this API at.
     */
    CONSOLE_URL: optionalUrl,
    /**
     * `/mcp` as an OAuth 2.1 resource server: its public URL (RFC 8707 resource indicator; a token's `aud` must
     * name it), the authorization server that issues its tokens, and which clients are which agents. Unset:
     * `/mcp` takes API keys only.
     */
    MCP_RESOURCE_URL: optionalUrl,
    MCP_OAUTH_ISSUER: optionalUrl,
    /** Where the issuer's signing keys are (default: its metadata's `jwks_uri`). */
    MCP_OAUTH_JWKS_URL: optionalUrl,
    /**
     * Which OAuth clients are agents, for whom: JSON `{"<client_id>": {"operator": "<email>", "role":
     * "viewer"|"operator", "groups": ["<group id>"]}}`. A token of any other client is refused.
     */
    MCP_OAUTH_CLIENTS: z
      .string()
      .default('{}')
      .transform((text, ctx) => {
        const parsed = oauthClientsSchema.safeParse(safeJson(text));
        if (!parsed.success) {
          ctx.addIssue({ code: 'custom', message: `not a client map: ${parsed.error.issues[0]?.message}` });
          return z.NEVER;
        }
        return parsed.data;
      }),
    /** An MCP session nobody used for this long is closed (the client starts a new one). */
    MCP_SESSION_IDLE_S: envInt(30 * 60, { min: 10, max: 7 * 24 * 3600 }),
    /** Open MCP sessions this process holds at most; a new one beyond that is refused with 503. */
    MCP_MAX_SESSIONS: envInt(1000, { min: 1 }),
    /**
     * Browser origins that may reach `/mcp` (MCP's DNS rebinding protection): `scheme://host[:port]`, the port
     * possibly `*`, comma-separated. A request without Origin (no browser page) is unaffected; the console's
     * origin is added where OIDC_SUCCESS_REDIRECT or OIDC_REDIRECT_URL names it.
     */
    MCP_ALLOWED_ORIGINS: envList(LOOPBACK_ORIGINS).superRefine((entries, ctx) => {
      for (const entry of entries) {
        try {
          parseOriginPattern(entry);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
        }
      }
    }),
    /** How deep any JSON body may nest (objects and arrays, the body itself is level 1); deeper is a 400. */
    JSON_MAX_DEPTH: envInt(32, { min: 4, max: 256 }),
    /** Ed25519 key (PEM, or base64 of its 32 bytes) that signs audit exports; dev: `.local/dev-secrets.json`. */
    ...auditSigningEnv,
    /** Chain links one signed audit export with its rows may carry (it is built in memory). */
    AUDIT_EXPORT_MAX_LINKS: envInt(100_000, { min: 1 }),
    /** The orchestrator seal keys this deployment accepts (verifier key strings; dev: the development key's). */
    ...sealKeysEnv,
    /** Where signed checkpoints and their tree are written, outside Postgres (DESIGN §6). */
    CHECKPOINT_DIR: z.string().min(1).optional(),
    /** How often the chain heads are committed into a checkpoint (also at every signed export); 0: only at exports. */
    CHECKPOINT_INTERVAL_MS: envInt(300_000, { min: 0 }),
    /** The checkpoints' origin line and key name (C2SP tlog-checkpoint: the log's identity). */
    CHECKPOINT_ORIGIN: z
      .string()
      .regex(/^[^\s+]+$/, 'an origin holds no space and no +')
      .default('voice-fleet.local/evidence'),
    /**
     * Parse every JSON answer with its route's schema from @fleet/api-contract and answer a drift as a 500
     * (DESIGN §8). The test harnesses turn it on; it costs a parse per answer, so it is off by default.
     */
    VALIDATE_ANSWERS: envBoolean(false),
  })
  .superRefine((c, ctx) => {
    if (c.AUDIT_SIGNING_KEY !== undefined) {
      try {
        privateKeyFromText(c.AUDIT_SIGNING_KEY);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['AUDIT_SIGNING_KEY'], message: (err as Error).message });
      }
    } else if (c.NODE_ENV === 'production') {
      ctx.addIssue({ code: 'custom', path: ['AUDIT_SIGNING_KEY'], message: 'required in production' });
    }
    if (c.SEAL_PUBLIC_KEYS !== undefined) {
      try {
        if (SealKeyring.parse(c.SEAL_PUBLIC_KEYS).keys.length === 0) throw new Error('lists no key');
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['SEAL_PUBLIC_KEYS'], message: (err as Error).message });
      }
    } else if (c.NODE_ENV === 'production') {
      ctx.addIssue({ code: 'custom', path: ['SEAL_PUBLIC_KEYS'], message: 'required in production' });
    }
    if (c.CHECKPOINT_DIR === undefined && c.NODE_ENV === 'production') {
      ctx.addIssue({ code: 'custom', path: ['CHECKPOINT_DIR'], message: 'required in production' });
    }
    if (c.MCP_STATE_KEY === undefined && c.NODE_ENV === 'production') {
      ctx.addIssue({ code: 'custom', path: ['MCP_STATE_KEY'], message: 'required in production' });
    }
    if ((c.MCP_OAUTH_ISSUER === undefined) !== (c.MCP_RESOURCE_URL === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['MCP_OAUTH_ISSUER'],
        message: 'MCP_OAUTH_ISSUER and MCP_RESOURCE_URL go together',
      });
    }
    if (c.OIDC_ISSUER === undefined) return;
    for (const name of ['OIDC_CLIENT_ID', 'OIDC_REDIRECT_URL'] as const) {
      if (c[name] === undefined)
        ctx.addIssue({ code: 'custom', path: [name], message: 'required with OIDC_ISSUER' });
    }
  });

export type AdminApiConfig = z.infer<typeof schema> & {
  /** Seal imported eFuse keys (POST /serial-keys); the first is the newest. The broker opens them. */
  efuseWrappingKeys: Buffer[];
  /** The accepted seal keys, as listed (or the development key's). */
  sealPublicKeys: string;
  /** CHECKPOINT_DIR, or `.local/checkpoints/<database>` in development. */
  checkpointDir: string;
};

export function loadAdminApiConfig(env: NodeJS.ProcessEnv = process.env): AdminApiConfig {
  const config = loadConfig(schema, env);
  return {
    ...config,
    efuseWrappingKeys: resolveEfuseWrappingKeys(config.EFUSE_WRAPPING_KEYS, config.NODE_ENV),
    sealPublicKeys: resolveSealPublicKeys(
      config.SEAL_PUBLIC_KEYS,
      config.NODE_ENV,
      (key) => sealSigner(key).verifierKey,
    ),
    // Development: one directory per database, so test databases never share a log.
    checkpointDir:
      config.CHECKPOINT_DIR ??
      join(findWorkspaceRoot(__dirname), '.local', 'checkpoints', databaseName(config.DATABASE_URL)),
  };
}

function databaseName(url: string): string {
  return new URL(url).pathname.replace(/^\//, '').replace(/[^A-Za-z0-9_.-]/g, '_') || 'default';
}

/** The session cookie's Secure flag: configured, or on in production. */
export function secureCookies(config: AdminApiConfig): boolean {
  return config.SESSION_COOKIE_SECURE
    ? config.SESSION_COOKIE_SECURE === 'true'
    : config.NODE_ENV === 'production';
}

/** Injection token for the validated configuration. */
export const ADMIN_API_CONFIG = Symbol('AdminApiConfig');
