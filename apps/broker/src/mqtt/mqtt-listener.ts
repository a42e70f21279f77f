import { createServer, type Server } from 'node:net';
import type { Aedes } from 'aedes';
import type { HealthCheck } from '@fleet/telemetry';

/** Plain MQTT over TCP (a stock device uses plain TCP on every port but 8883). */
export async function listenMqttTcp(broker: Aedes, host: string, port: number): Promise<Server> {
  const server = createServer((socket) => broker.handle(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function boundPort(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

export function listenerHealthCheck(name: string, server: Server): HealthCheck {
  return {
    name,
    check: () =>
      server.listening
        ? Promise.resolve()
        : Promise.reject(new Error(`${name} listener is not accepting connections`)),
  };
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
