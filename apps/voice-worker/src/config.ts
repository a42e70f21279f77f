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

// The only place the voice-worker reads process.env.
const schema = z.object({
  ...commonEnv,
  ...databaseEnv,
  ...redisEnv,
  ...serviceMqttEnv,
  BIND_HOST: z.string().default('0.0.0.0'),
  HTTP_PORT: envPort(8083),
});

export type VoiceWorkerConfig = Omit<z.infer<typeof schema>, 'MQTT_PASSWORD'> & { mqttPassword: string };

export function loadVoiceWorkerConfig(env: NodeJS.ProcessEnv = process.env): VoiceWorkerConfig {
  const { MQTT_PASSWORD, ...raw } = loadConfig(schema, env);
  return { ...raw, mqttPassword: resolveServicePassword('voice-worker', MQTT_PASSWORD, raw.NODE_ENV) };
}
