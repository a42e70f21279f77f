// A bare MQTT endpoint for client tests: it records every packet the client sends and answers only what it is
// told to, so a test can see CONNECT fields, PINGREQ timing and the DISCONNECT.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { generate, parser, type Packet } from 'mqtt-packet';

export interface RawBroker {
  readonly port: number;
  readonly packets: { readonly connection: number; readonly packet: Packet; readonly at: number }[];
  readonly connections: Socket[];
  /** CONNACK return code for the next connections (0 = accepted). */
  connackCode: number;
  answerPings: boolean;
  send(connection: number, packet: Packet): void;
  close(): Promise<void>;
}

export async function startRawBroker(): Promise<RawBroker> {
  const connections: Socket[] = [];
  const packets: RawBroker['packets'] = [];
  const broker = { connackCode: 0, answerPings: true };
  const server: Server = createServer((socket) => {
    const index = connections.push(socket) - 1;
    const p = parser({ protocolVersion: 4 });
    socket.on('data', (d: Buffer) => p.parse(d));
    socket.on('error', () => undefined);
    p.on('packet', (packet: Packet) => {
      packets.push({ connection: index, packet, at: Date.now() });
      if (packet.cmd === 'connect') {
        socket.write(generate({ cmd: 'connack', returnCode: broker.connackCode, sessionPresent: false }));
      }
      if (packet.cmd === 'pingreq' && broker.answerPings) socket.write(generate({ cmd: 'pingresp' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(broker, {
    port: (server.address() as AddressInfo).port,
    packets,
    connections,
    send(connection: number, packet: Packet) {
      connections[connection]?.write(generate(packet));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of connections) c.destroy();
        server.close(() => resolve());
      }),
  });
}
