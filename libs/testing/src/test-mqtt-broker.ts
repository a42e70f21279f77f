import { createServer, type Server } from 'node:net';
import { Aedes, type Client } from 'aedes';

export interface TestMqttBroker {
  port: number;
  url: string;
  aedes: Aedes;
  close(): Promise<void>;
}

export interface TestMqttBrokerOptions {
  /** username → password; when given, anyone else is refused. */
  users?: Record<string, string>;
  /**
   * Subscribes each connecting client to the topic this returns, the way the product's broker subscribes a
   * device to its `devices/p2p/<mac_>` (a stock device subscribes to nothing itself).
   */
  autoSubscribe?: (client: Client) => string | undefined;
}

/** A small in-process aedes for tests of MQTT clients (services, the device simulator). */
export async function startTestMqttBroker({
  users,
  autoSubscribe,
}: TestMqttBrokerOptions = {}): Promise<TestMqttBroker> {
  const aedes = await Aedes.createBroker();
  if (users) {
    aedes.authenticate = (_client, username, password, done) => {
      const ok =
        username !== undefined && users[username] !== undefined && password?.toString() === users[username];
      done(ok ? null : Object.assign(new Error('bad credentials'), { returnCode: 4 }), ok);
    };
  }
  if (autoSubscribe) {
    aedes.on('client', (client) => {
      const topic = autoSubscribe(client);
      if (topic) client.subscribe({ topic, qos: 0 }, () => undefined);
    });
  }
  const server: Server = createServer((socket) => aedes.handle(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    aedes,
    async close() {
      if (aedes.closed) return;
      // aedes first: it disconnects every client, so the listener's close does not wait on them.
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
