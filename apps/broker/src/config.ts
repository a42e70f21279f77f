import { hostname } from 'node:os';
import { z } from 'zod';
import {
  commonEnv,
  databaseEnv,
  devSecretsPath,
  envBoolean,
  envInt,
  envList,
  envPort,
  findWorkspaceRoot,
  loadConfig,
  loadOrCreateDevSecrets,
  redisEnv,
  ConfigError,
} from '@fleet/config';

// The only place the broker reads process.env. Ports avoid Mosquitto's 1883, which this machine kind runs.
const schema = z.object({
  ...commonEnv,
  ...databaseEnv,
  ...redisEnv,
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
  REGISTRATION_OPEN: envBoolean(true),
  DEVICE_KEEPALIVE_S: envInt(240, { min: 10, max: 65535 }),
  MAX_PACKET_BYTES: envInt(64 * 1024, { min: 1024, max: 16 * 1024 * 1024 }),
});

export type BrokerConfig = Omit<z.infer<typeof schema>, 'DEVICE_SIGNING_KEYS' | 'SERVICE_CREDENTIALS'> & {
  deviceSigningKeys: string[];
  serviceCredentials: Map<string, string>;
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
  const { DEVICE_SIGNING_KEYS: _k, SERVICE_CREDENTIALS: _s, ...rest } = raw;
  return {
    ...rest,
    PUBLIC_MQTT_PORT: raw.PUBLIC_MQTT_PORT || raw.MQTT_PORT,
    PUBLIC_UDP_PORT: raw.PUBLIC_UDP_PORT || raw.UDP_PORT,
    deviceSigningKeys: keys,
    serviceCredentials: services,
  };
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
