import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { linkRequestTarget } from '@fleet/protocol';
import { registerListenAiDevice, waitFor } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from '../../test/broker-fixture';

describe('the ListenAI link with a certificate configured', () => {
  let f: BrokerFixture;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'link-tls-'));
    const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=127.0.0.1',
        '-days',
        '1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    f = await startBrokerFixture({
      LINK_PORT: '0',
      MQTT_TLS_PORT: '0',
      TLS_CERT_FILE: cert,
      TLS_KEY_FILE: key,
    });
  });
  afterAll(() => f.close());

  it('serves wss only: a device links over TLS, and a plain ws client gets no link', async () => {
    const { mac, token } = await registerListenAiDevice(f.sql, '02:1a:00:00:0f:01');
    const secure = new WebSocket(`wss://127.0.0.1:${f.broker.ports.link}${linkRequestTarget()}`, {
      headers: { authorization: `Bearer ${token}` },
      rejectUnauthorized: false,
    });
    await new Promise<void>((resolve, reject) => secure.once('open', () => resolve()).once('error', reject));
    await waitFor(
      async () => (await f.sql.query('SELECT online FROM device WHERE id = $1', [mac])).rows[0].online,
    );
    secure.close();
    const plain = new WebSocket(`ws://127.0.0.1:${f.broker.ports.link}${linkRequestTarget()}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const failed = await new Promise<boolean>((resolve) => {
      plain.once('open', () => resolve(false));
      plain.once('error', () => resolve(true));
      plain.once('close', () => resolve(true));
    });
    expect(failed).toBe(true);
  });
});
