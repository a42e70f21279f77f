import mqtt, { type MqttClient } from 'mqtt';
import { HOW_TO_START, type HealthCheck, type Logger } from '@fleet/telemetry';

export interface ServiceMqttOptions {
  url: string;
  /** The service identity the broker knows (orchestrator, voice-worker, ...). */
  username: string;
  password: string;
  clientId: string;
  logger: Logger;
}

/**
 * A service's own MQTT connection to the platform broker. It reconnects by itself; `waitUntilConnected`
 * is for start-up, the health check for later.
 */
export function connectServiceMqtt({
  url,
  username,
  password,
  clientId,
  logger,
}: ServiceMqttOptions): MqttClient {
  const client = mqtt.connect(url, {
    username,
    password,
    clientId,
    protocolVersion: 4, // aedes speaks MQTT 3.1.1; trace context travels inside payloads
    clean: true,
    reconnectPeriod: 1_000,
    connectTimeout: 5_000,
    keepalive: 30,
  });
  let lastError = '';
  client.on('connect', () => logger.info({ url }, 'connected to the broker'));
  client.on('error', (err) => {
    if (err.message !== lastError) logger.warn({ err: err.message, url }, 'broker connection error');
    lastError = err.message;
  });
  client.on('offline', () => logger.warn({ url }, 'broker connection lost; reconnecting'));
  return client;
}

export function mqttHealthCheck(client: MqttClient): HealthCheck {
  return {
    name: 'mqtt',
    hint: HOW_TO_START.broker,
    check: () =>
      client.connected ? Promise.resolve() : Promise.reject(new Error('not connected to the broker')),
  };
}

export async function closeMqtt(client: MqttClient): Promise<void> {
  await client.endAsync();
}
