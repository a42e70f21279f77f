// A bare aedes (in-memory, no hooks) in a process of its own, subscribing each client to one topic of its own
// as our broker does for a device: the floor under what our broker's CONNECT costs on this machine.
import { createServer } from 'node:net';
import { Aedes } from 'aedes';

async function main(): Promise<void> {
  const aedes = await Aedes.createBroker();
  aedes.on('clientReady', (client) => {
    client.subscribe({ topic: `devices/p2p/${client.id}`, qos: 0 }, () => {
      process.send?.({ type: 'ready-client' });
    });
  });
  const server = createServer((socket) => aedes.handle(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  process.send?.({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
}

void main();
