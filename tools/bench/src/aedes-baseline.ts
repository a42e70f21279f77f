// The floor: what a CONNECT (and the broker's own subscription for the client) costs in a bare aedes on this
// machine, with the same lean MQTT client the simulated devices use. Our broker's figures are read against it.
//   npm run bench:aedes-baseline -- [--clients 3000] [--rounds 3]
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { defaultClock, LeanMqttClient } from '@fleet/device-sim';
import { nextMessage, stopChild } from './harness/child-process';
import { cpuSeconds } from './harness/proc-stats';
import { waitForQuietMachine } from './harness/quiet-machine';
import { printResult, round, table } from './harness/report';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { clients: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '3' } },
  });
  const o = z
    .object({ clients: z.coerce.number().int().positive(), rounds: z.coerce.number().int().positive() })
    .parse(values);
  const perRound = o.clients;
  const broker = fork(join(__dirname, 'load/aedes-process.js'), [], { execArgv: [] });
  let ready = 0;
  broker.on('message', (m: { type: string }) => {
    if (m.type === 'ready-client') ready++;
  });
  const { port } = await nextMessage<{ type: 'listening'; port: number }>(broker, 'listening');
  const clock = defaultClock();
  const clients: LeanMqttClient[] = [];
  const rounds: { round: number; clients: number; seconds: number; cpuMsPerConnect: number }[] = [];
  try {
    for (let r = 1; r <= o.rounds; r++) {
      await waitForQuietMachine();
      const base = ready;
      const cpu = cpuSeconds(broker.pid!);
      const started = Date.now();
      for (let i = 0; i < perRound; i++) {
        const client = new LeanMqttClient(
          {
            host: '127.0.0.1',
            port,
            clientId: `baseline-${r}-${i}`,
            keepaliveSec: 240,
            connectTimeoutMs: 60_000,
            reconnect: false,
            clock,
          },
          { onConnected: () => undefined, onDisconnected: () => undefined, onMessage: () => undefined },
        );
        client.start();
        clients.push(client);
      }
      while (ready < base + perRound) await new Promise((resolve) => setTimeout(resolve, 20));
      rounds.push({
        round: r,
        clients: perRound,
        seconds: round((Date.now() - started) / 1000),
        cpuMsPerConnect: round(((cpuSeconds(broker.pid!) - cpu) * 1000) / perRound, 3),
      });
    }
  } finally {
    for (const c of clients) c.destroy();
    await stopChild(broker, 5_000);
  }
  printResult('aedes-baseline', rounds, [
    'Bare aedes (in-memory, no hooks), one own subscription per client, lean MQTT clients in another process',
    ...table(
      ['round', 'clients', 'seconds', 'aedes CPU/connect'],
      rounds.map((r) => [r.round, r.clients, `${r.seconds} s`, `${r.cpuMsPerConnect} ms`]),
    ),
    'Later rounds run on a warm (JIT-compiled) broker with the earlier clients still connected.',
  ]);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
