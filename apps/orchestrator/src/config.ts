import { z } from 'zod';
import {
  commonEnv,
  databaseEnv,
  envPort,
  loadConfig,
  redisEnv,
  resolveServicePassword,
  serviceMqttEnv,
} from '@fleet/config';

// The only place the orchestrator reads process.env.
const schema = z.object({
  ...commonEnv,
  ...databaseEnv,
  ...redisEnv,
  ...serviceMqttEnv,
  BIND_HOST: z.string().default('0.0.0.0'),
  HTTP_PORT: envPort(8082),
});

export type OrchestratorConfig = Omit<z.infer<typeof schema>, 'MQTT_PASSWORD'> & { mqttPassword: string };

export function loadOrchestratorConfig(env: NodeJS.ProcessEnv = process.env): OrchestratorConfig {
  const { MQTT_PASSWORD, ...raw } = loadConfig(schema, env);
  return { ...raw, mqttPassword: resolveServicePassword('orchestrator', MQTT_PASSWORD, raw.NODE_ENV) };
}
