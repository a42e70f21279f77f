import { hostname } from 'node:os';
import { z } from 'zod';
import {
  commonEnv,
  databaseEnv,
  devSecretsPath,
  efuseWrappingEnv,
  envBoolean,
  envInt,
  envList,
  envPort,
  findWorkspaceRoot,
  loadConfig,
  loadOrCreateDevSecrets,
  redisEnv,
  resolveEfuseWrappingKeys,
  tracingEnv,
  ConfigError,
} from '@fleet/config';
import { LISTENAI_LINK_PATH, wrappingKeyOf, type WrappingKey } from '@fleet/protocol';

// The only place the broker reads process.env. Ports avoid Mosquitto's 1883, which this machine kind runs.
const schema = z.object({
  ...commonEnv,
  ...databaseEnv,
  ...redisEnv,
  ...tracingEnv,
  ...efuseWrappingEnv,
  BROKER_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .default(`${hostname()}-${process.pid}`),
  BIND_HOST: z.string().default('0.0.0.0'),
  MQTT_PORT: envPort(1884),
  MQTT_WS_PORT: envPort(8085),
  HTTP_PORT: envPort(8081),
  UDP_PORT: envPort(8884),
  /** Host that devices are told to use (OTA answer, hello); never the bind address. */
  PUBLIC_HOST: z.string().default('127.0.0.1'),
  PUBLIC_MQTT_PORT: envPort(0),
  PUBLIC_UDP_PORT: envPort(0),
  /** Signing keys for device passwords, newest first; older ones keep devices working during a rotation. */
  DEVICE_SIGNING_KEYS: envList(),
  /** `name:secret` pairs for the platform's own services. */
  SERVICE_CREDENTIALS: envList(),
  /** Base URL devices download firmware from (this service's HTTP, as devices reach it). */
  PUBLIC_HTTP_URL: z.url().optional(),
  /** Host for the UDP audio of this replica (each replica advertises its own). Defaults to PUBLIC_HOST. */
  PUBLIC_UDP_HOST: z.string().optional(),
  /** MQTT over TLS, only with a certificate a stock device accepts (its CA bundle); port 8883 means TLS to it. */
  MQTT_TLS_PORT: envPort(8883),
  TLS_CERT_FILE: z.string().optional(),
  TLS_KEY_FILE: z.string().optional(),
  REGISTRATION_OPEN: envBoolean(true),
  /** Activation v2: outstanding challenges per MAC (one per Client-Id claiming it; the oldest dropped past it). */
  ACTIVATION_CHALLENGES_PER_MAC: envInt(4, { min: 1, max: 100 }),
  /** Activation v2 challenges one address may be given a minute, for one MAC and for all MACs. */
  ACTIVATION_CHALLENGES_PER_MAC_ADDRESS_MIN: envInt(6, { min: 1, max: 10_000 }),
  ACTIVATION_CHALLENGES_PER_ADDRESS_MIN: envInt(60, { min: 1, max: 1_000_000 }),
  DEVICE_KEEPALIVE_S: envInt(240, { min: 10, max: 65535 }),
  MAX_PACKET_BYTES: envInt(64 * 1024, { min: 1024, max: 16 * 1024 * 1024 }),
  /** Messages per second a device may publish on average; bursts of twice that pass. */
  DEVICE_MESSAGE_RATE: envInt(20, { min: 1, max: 10_000 }),
  /** Minutes the device clock is ahead of UTC (`server_time.timezone_offset`). */
  DEVICE_TIMEZONE_OFFSET_MIN: envInt(0, { min: -720, max: 840 }),
  /** Share sessions and routing with other replicas through Redis (aedes persistence and emitter). */
  BROKER_CLUSTER: envBoolean(true),
  /**
   * A replica whose heartbeat is older than this is gone: a live one closes its connection rows (reason
   * `broker_lost`) and takes its devices offline (it beats every fifth of this).
   */
  REPLICA_LIVENESS_TTL_MS: envInt(10_000, { min: 500, max: 600_000 }),
  /** Downlink audio the broker announces in its hello (what the voice worker must produce). */
  DOWNLINK_SAMPLE_RATE: envInt(24000, { min: 8000, max: 48000 }),
  FRAME_DURATION_MS: envInt(60, { min: 10, max: 120 }),
  /** DESIGN §3 "The ListenAI link": its own port; TLS (wss) when TLS_CERT_FILE and TLS_KEY_FILE are set. */
  LINK_PORT: envPort(8086),
  /** The link's address operators give ListenAI devices; defaults to ws(s)://PUBLIC_HOST:LINK_PORT/v1/interaction. */
  PUBLIC_LINK_URL: z.url().optional(),
  /** Largest text frame a ListenAI device may send (a tools/list page is a few KB). */
  LINK_MAX_FRAME_BYTES: envInt(64 * 1024, { min: 1024, max: 16 * 1024 * 1024 }),
  /** Seconds between pings on a link; a link that has not answered the previous ping by the next is dead. */
  LINK_PING_S: envInt(30, { min: 1, max: 3600 }),
  /**
   * The connection budget at the device edge (link, device HTTP, MQTT over TCP, TLS and WebSocket): connections
   * not yet authenticated held at once (the device HTTP's count for their whole life), and from one address
   * (an IPv6 /64).
   */
  EDGE_PENDING_MAX: envInt(4096, { min: 1, max: 1_000_000 }),
  EDGE_PENDING_PER_ADDRESS: envInt(256, { min: 1, max: 1_000_000 }),
  /** From TCP accept to the last request header (device HTTP) or an accepted link (the link's upgrade). */
  /**
   * Take the client address from X-Forwarded-For on the device HTTP. Off unless a proxy that sets it stands in
   * front (the deployment's balancer passes TCP through and sets nothing): trusted, any device could name its own
   * address and escape the per-address activation budget.
   */
  DEVICE_HTTP_TRUST_PROXY: envBoolean(false),
  EDGE_HEADERS_TIMEOUT_MS: envInt(5_000, { min: 200, max: 120_000 }),
  /** From TCP accept to an accepted MQTT CONNECT (a TLS handshake on a slow device included). */
  EDGE_CONNECT_TIMEOUT_MS: envInt(10_000, { min: 200, max: 120_000 }),
  /** Open files device connections never take (Postgres, Redis, logs); at most a quarter of the limit. */
  EDGE_RESERVED_FILES: envInt(1024, { min: 16, max: 1_000_000 }),
});

export type BrokerConfig = Omit<
  z.infer<typeof schema>,
  | 'DEVICE_SIGNING_KEYS'
  | 'SERVICE_CREDENTIALS'
  | 'PUBLIC_UDP_HOST'
  | 'PUBLIC_HTTP_URL'
  | 'EFUSE_WRAPPING_KEYS'
  | 'PUBLIC_LINK_URL'
> & {
  PUBLIC_UDP_HOST: string;
  /** Without a trailing slash. With HTTP_PORT 0 (tests) the caller fixes it up once the port is bound. */
  PUBLIC_HTTP_URL: string;
  /** With LINK_PORT 0 (tests) the caller fixes it up once the port is bound. */
  PUBLIC_LINK_URL: string;
  deviceSigningKeys: string[];
  serviceCredentials: Map<string, string>;
  /** Open the eFuse keys admins imported (activation v2); the first is the newest. */
  efuseWrappingKeys: WrappingKey[];
};

export function loadBrokerConfig(env: NodeJS.ProcessEnv = process.env): BrokerConfig {
  const raw = loadConfig(schema, env);
  let keys = raw.DEVICE_SIGNING_KEYS;
  let services = parseServiceCredentials(raw.SERVICE_CREDENTIALS);
  if (keys.length === 0 || services.size === 0) {
    if (raw.NODE_ENV === 'production') {
      // Never "skip the check": a production broker without keys would accept any device.
      const missing = keys.length === 0 ? 'DEVICE_SIGNING_KEYS' : 'SERVICE_CREDENTIALS';
      throw new ConfigError([
        { variable: missing, message: 'required in production (no development fallback)' },
      ]);
    }
    const dev = loadOrCreateDevSecrets(devSecretsPath(findWorkspaceRoot(__dirname)));
    if (keys.length === 0) keys = [dev.deviceSigningKey];
    if (services.size === 0) services = new Map(Object.entries(dev.services));
  }
  const { DEVICE_SIGNING_KEYS: _k, SERVICE_CREDENTIALS: _s, EFUSE_WRAPPING_KEYS: _e, ...rest } = raw;
  if (raw.EDGE_PENDING_PER_ADDRESS > raw.EDGE_PENDING_MAX) {
    throw new ConfigError([
      { variable: 'EDGE_PENDING_PER_ADDRESS', message: 'cannot exceed EDGE_PENDING_MAX' },
    ]);
  }
  if ((raw.TLS_CERT_FILE === undefined) !== (raw.TLS_KEY_FILE === undefined)) {
    throw new ConfigError([
      { variable: 'TLS_KEY_FILE', message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' },
    ]);
  }
  return {
    ...rest,
    PUBLIC_MQTT_PORT: raw.PUBLIC_MQTT_PORT || raw.MQTT_PORT,
    PUBLIC_UDP_PORT: raw.PUBLIC_UDP_PORT || raw.UDP_PORT,
    PUBLIC_UDP_HOST: raw.PUBLIC_UDP_HOST ?? raw.PUBLIC_HOST,
    PUBLIC_HTTP_URL: raw.PUBLIC_HTTP_URL ?? `http://${raw.PUBLIC_HOST}:${raw.HTTP_PORT}`,
    PUBLIC_LINK_URL:
      raw.PUBLIC_LINK_URL ?? defaultLinkUrl(raw.PUBLIC_HOST, raw.LINK_PORT, !!raw.TLS_CERT_FILE),
    deviceSigningKeys: keys,
    serviceCredentials: services,
    efuseWrappingKeys: resolveEfuseWrappingKeys(raw.EFUSE_WRAPPING_KEYS, raw.NODE_ENV).map(wrappingKeyOf),
  };
}

export function defaultLinkUrl(host: string, port: number, tls: boolean): string {
  return `${tls ? 'wss' : 'ws'}://${host}:${port}${LISTENAI_LINK_PATH}`;
}

function parseServiceCredentials(pairs: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of pairs) {
    const at = pair.indexOf(':');
    if (at <= 0 || at === pair.length - 1) {
      throw new ConfigError([
        { variable: 'SERVICE_CREDENTIALS', message: 'expected name:secret pairs separated by commas' },
      ]);
    }
    map.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return map;
}
