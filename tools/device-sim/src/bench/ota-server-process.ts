// A fake OTA server in its own process, so a memory check of the simulator does not count it.
// Prints {"url": …} on stdout once listening; stops on SIGTERM.
import { parseArgs } from 'node:util';
import { startFakeOtaServer } from '../fake-ota/fake-ota-server';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      mqtt: { type: 'string', default: '127.0.0.1:1883' },
      'signing-key': { type: 'string', default: 'sim-signing-key' },
      keepalive: { type: 'string', default: '240' },
    },
  });
  const [host = '127.0.0.1', port = '1883'] = values.mqtt.split(':');
  const server = await startFakeOtaServer({
    mqtt: { host, port: Number(port), keepalive: Number(values.keepalive) },
    signingKey: values['signing-key'],
    record: false,
  });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

void main();
