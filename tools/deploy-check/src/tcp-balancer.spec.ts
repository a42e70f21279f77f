import { createServer, Socket, type Server } from 'node:net';
import { freePort } from '@fleet/testing';
import { startTcpBalancer } from './tcp-balancer';

async function echoServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.pipe(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

function roundTrip(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.connect(port, '127.0.0.1', () => socket.write(text));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString());
    });
  });
}

describe('the test TCP balancer', () => {
  it('spreads connections round robin and skips a backend that refuses them', async () => {
    const [a, b] = await Promise.all([echoServer(), echoServer()]);
    const dead = await freePort();
    const balancer = await startTcpBalancer([
      { name: 'a', port: a.port },
      { name: 'dead', port: dead },
      { name: 'b', port: b.port },
    ]);
    try {
      for (let i = 0; i < 6; i++) expect(await roundTrip(balancer.port, `hello ${i}`)).toBe(`hello ${i}`);
      const accepted = balancer.accepted();
      expect(accepted['dead']).toBeUndefined();
      expect(accepted['a']! + accepted['b']!).toBe(6);
      expect(accepted['a']).toBeGreaterThan(0);
      expect(accepted['b']).toBeGreaterThan(0);
    } finally {
      await balancer.close();
      a.server.close();
      b.server.close();
    }
  });
});
