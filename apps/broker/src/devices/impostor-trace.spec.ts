import { createConnection } from 'node:net';
import { MqttClient } from 'mqtt';
import { waitFor } from '@fleet/testing';
import { startBrokerFixture, type BrokerFixture } from '../../test/broker-fixture';
import {
  bootCredentials,
  connectLikeDevice,
  newDeviceIdentity,
  type MqttSection,
} from '../../test/stock-device';

/** Connects with a device's credentials, as connectLikeDevice does, from another local address. */
function connectFrom(localAddress: string, creds: MqttSection): Promise<MqttClient> {
  const [host, port] = creds.endpoint.split(':');
  const client = new MqttClient(() => createConnection({ host, port: Number(port), localAddress }), {
    protocolVersion: 4,
    clean: true,
    clientId: creds.client_id,
    username: creds.username,
    password: creds.password,
    keepalive: 240,
    reconnectPeriod: 0,
  });
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', reject);
  });
}

// DESIGN §3: whoever holds a device's Client-Id, on the same board, checks in as the device (nothing about what it
// is changes, so there is no identity event) and takes its connection over. What it cannot avoid leaving is the
// takeover itself, with its own address: the rows the device page and the fleet's alert read.
describe('a same-board impostor with a stolen Client-Id', () => {
  let f: BrokerFixture;

  beforeAll(async () => {
    f = await startBrokerFixture();
  });
  afterAll(() => f.close());

  it('leaves each takeover in the connection rows, with the address it came from', async () => {
    const device = newDeviceIdentity();
    const real = await connectLikeDevice(await bootCredentials(f.httpUrl, device));
    const connections = () =>
      f.sql.query<{ remote_address: string; online: boolean; close_reason: string | null }>(
        `SELECT remote_address, online_at IS NOT NULL AS online, close_reason FROM connection
          WHERE device_id = $1 ORDER BY opened_at`,
        [device.mac],
      );
    await waitFor(async () => (await connections()).rows.some((c) => c.online), {
      what: 'the device online',
    });

    const stolen = await bootCredentials(f.httpUrl, device); // the same MAC, Client-Id and board
    const impostor = await connectFrom('127.0.0.2', stolen);
    const rows = await waitFor(
      async () => {
        const { rows } = await connections();
        return rows.length === 2 && rows[0]!.close_reason === 'takeover' && rows[1]!.online && rows;
      },
      { what: "the real device's connection taken over by the impostor's" },
    );
    expect(rows.map((r) => [r.remote_address.replace(/^::ffff:/, ''), r.close_reason])).toEqual([
      ['127.0.0.1', 'takeover'],
      ['127.0.0.2', null],
    ]);
    const events = await f.sql.query('SELECT 1 FROM device_identity_event WHERE device_id = $1', [
      device.mac,
    ]);
    expect(events.rowCount).toBe(0);
    await impostor.endAsync();
    real.end(true);
  });
});
