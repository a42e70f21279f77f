import { z } from 'zod';
import { devSecretsPath, loadOrCreateDevSecrets, type ServiceIdentity } from './dev-secrets';
import { envUrl } from './env-types';
import { ConfigError } from './load-config';
import { findWorkspaceRoot } from './workspace-root';

/** How a platform service reaches the broker, as itself. */
export const serviceMqttEnv = {
  MQTT_URL: envUrl('mqtt://127.0.0.1:1884', ['mqtt:', 'mqtts:', 'ws:', 'wss:']),
  MQTT_PASSWORD: z.string().min(16).optional(),
};

/**
 * The service's broker password: configured, or in development the one `.local/dev-secrets.json` holds
 * (the broker reads the same file). Production without one refuses to start.
 */
export function resolveServicePassword(
  identity: ServiceIdentity,
  configured: string | undefined,
  nodeEnv: string,
): string {
  if (configured) return configured;
  if (nodeEnv === 'production') {
    throw new ConfigError([{ variable: 'MQTT_PASSWORD', message: 'required in production' }]);
  }
  const secrets = loadOrCreateDevSecrets(devSecretsPath(findWorkspaceRoot(__dirname)));
  return secrets.services[identity]!;
}
