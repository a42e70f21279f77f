import mqtt, { type MqttClient } from 'mqtt';
import { Pool } from 'pg';
import { encodeUplinkWrapper, fleetUplinkTopic, mcpRequests } from '@fleet/protocol';
import { createLogger, createMetricsRegistry } from '@fleet/telemetry';
import {
  createTestDatabase,
  startTestMqttBroker,
  waitFor,
  type TestDatabase,
  type TestMqttBroker,
} from '@fleet/testing';
import { DeviceRegistry } from '../devices/device-registry';
import { responseRow } from '../verification/evidence-rows';
import { createOrchestratorMetrics } from '../orchestrator-metrics';
import { subscribeFleet } from './fleet-subscriber';
import { MalformedInputs } from './malformed-inputs';
import { McpLink } from './mcp-link';
import { RpcIds } from './rpc-ids';

const MAC = '02:11:00:00:00:01';
const reply = (id: number, text: string) =>
  `{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"isError":false}}}`;

// The orchestrator's side of DESIGN §3: a reply counts only if it came on the connection its request went out on.
// This test plays the broker, which wraps every uplink with the connection it came on.
describe('replies bound to their connection', () => {
  let db: TestDatabase;
  let pool: Pool;
  let broker: TestMqttBroker;
  let orchestrator: MqttClient;
  let asBroker: MqttClient;
  let link: McpLink;
  let malformed: MalformedInputs;
  const registry = createMetricsRegistry('orchestrator');
  const metrics = createOrchestratorMetrics(registry);

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    await pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, 'h', now())`, [MAC]);
    broker = await startTestMqttBroker();
    orchestrator = await mqtt.connectAsync(broker.url, { clientId: 'orchestrator-test', reconnectPeriod: 0 });
    asBroker = await mqtt.connectAsync(broker.url, { clientId: 'broker-test', reconnectPeriod: 0 });
    const logger = createLogger('orchestrator-test', 'silent');
    malformed = new MalformedInputs(pool, logger);
    link = new McpLink(orchestrator, new RpcIds(pool), malformed, metrics, logger);
    await subscribeFleet(orchestrator, new DeviceRegistry(() => true), link, () => undefined, metrics);
    await waitFor(() => orchestrator.connected);
  });
  afterAll(async () => {
    await Promise.all([orchestrator.endAsync(), asBroker.endAsync()]);
    await broker.close();
    await pool.end();
    await db.drop();
  });

  async function uplink(connectionId: string, text: string): Promise<void> {
    const wrapper = encodeUplinkWrapper({
      mac: MAC,
      connectionId,
      receivedAt: new Date().toISOString(),
      traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`,
      raw: Buffer.from(text),
    });
    if (!wrapper.ok) throw new Error(wrapper.error.message);
    await asBroker.publishAsync(fleetUplinkTopic(MAC, 'mcp'), wrapper.value);
  }

  const strays = async () =>
    (await registry.getSingleMetric('orchestrator_unpaired_replies_total')?.get())?.values.find(
      (v) => v.labels['reason'] === 'other_connection',
    )?.value ?? 0;

  it('never pairs a reply from another connection, and pairs the one from the connection the request went out on', async () => {
    const id = await link.allocateId(MAC);
    const before = await strays();
    const pending = link.exchange(
      { mac: MAC, dialect: 'xiaozhi', connectionId: 'conn-real' },
      { ...mcpRequests.toolsCall(id, 'self.get_device_status', {}), id },
      10_000,
    );
    // The impostor answers first, with the id it guessed and the values it wants recorded.
    await uplink('conn-impostor', reply(id, '{"audio_speaker":{"volume":1},"screen":{"theme":"FORGED"}}'));
    await waitFor(async () => (await strays()) === before + 1, { what: 'the stray counted' });
    await uplink('conn-real', reply(id, '{"audio_speaker":{"volume":70},"screen":{"theme":"light"}}'));
    const exchange = await pending;

    expect(exchange.outcome.kind).toBe('reply');
    if (exchange.outcome.kind !== 'reply') return;
    expect(exchange.outcome.raw.toString()).toContain('"volume\\":70');
    const row = responseRow(exchange);
    expect(row).toMatchObject({
      outcome: 'reply',
      connectionId: 'conn-real',
      text: expect.stringContaining('70'),
    });
    expect(row['strays']).toEqual([
      { connectionId: 'conn-impostor', receivedAt: expect.any(String), raw: expect.any(String) },
    ]);
    expect(Buffer.from((row['strays'] as { raw: string }[])[0]!.raw, 'base64').toString()).toContain(
      'FORGED',
    );

    await malformed.flush();
    const { rows } = await pool.query(
      `SELECT kind, connection_id FROM malformed_input WHERE device_id = $1 AND kind = 'stray_reply'`,
      [MAC],
    );
    expect(rows).toEqual([{ kind: 'stray_reply', connection_id: 'conn-impostor' }]);
  });

  it('lets a request answered only from another connection end without a reply', async () => {
    const id = await link.allocateId(MAC);
    const pending = link.exchange(
      { mac: MAC, dialect: 'xiaozhi', connectionId: 'conn-real' },
      { ...mcpRequests.toolsCall(id, 'self.get_device_status', {}), id },
      300,
    );
    await uplink('conn-impostor', reply(id, 'true'));
    const exchange = await pending;
    expect(exchange.outcome).toEqual({ kind: 'timeout', timeoutMs: 300 });
    expect(responseRow(exchange)).toMatchObject({
      outcome: 'no_reply',
      strays: [{ connectionId: 'conn-impostor' }],
    });
  });

  it('hears a late reply only on the connection the request went out on', async () => {
    const id = await link.allocateId(MAC);
    const late: string[] = [];
    const stop = link.listenLate(MAC, id, 'conn-real', (o) => {
      if (o.kind === 'reply') late.push(o.raw.toString());
    });
    await uplink('conn-impostor', reply(id, 'forged'));
    await uplink('conn-real', reply(id, 'true'));
    await waitFor(() => late.length > 0, { what: 'the late reply' });
    stop();
    expect(late).toEqual([reply(id, 'true')]);
  });
});
