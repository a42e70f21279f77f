import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import { encodeUsername, signMqttPassword } from '@fleet/protocol';
import { scrape, waitFor } from '@fleet/testing';
import { startE2ePlatform, type E2ePlatform } from './platform';

const MAC = '02:e2:00:00:00:02';

describe('/metrics shows what the fleet refused', () => {
  let p: E2ePlatform;

  beforeAll(async () => {
    p = await startE2ePlatform();
    await p.device(MAC);
  }, 60_000);

  afterAll(async () => {
    await p?.close();
  });

  it('counts a call the orchestrator rejects, by verdict and tool, and the API request that asked for it', async () => {
    const rejected = { verdict: 'rejected', tool: 'self.no_such_tool', origin: 'operator' };
    const accepted = { route: '/api/v1/devices/:id/calls', status: '202' };
    const before = {
      calls: await scrape(p.orchestratorUrl, 'orchestrator_calls_total', rejected),
      requests: await scrape(p.apiUrl, 'admin_api_http_requests_total', accepted),
    };
    const key = await p.operatorKey();
    const response = await fetch(`${p.apiUrl}/api/v1/devices/${MAC}/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: rejected.tool, arguments: {} }),
    });
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    await waitFor(
      async () =>
        (await p.sql.query(`SELECT 1 FROM call WHERE id = $1 AND verdict = 'rejected'`, [id])).rowCount === 1,
      { what: 'the rejection' },
    );

    expect(await scrape(p.orchestratorUrl, 'orchestrator_calls_total', rejected)).toBe(before.calls + 1);
    expect(await scrape(p.apiUrl, 'admin_api_http_requests_total', accepted)).toBe(before.requests + 1);
    expect(await scrape(p.orchestratorUrl, 'orchestrator_queue_depth')).toBe(0);
  });

  it('counts a call request the API refuses for a wrong type in its body', async () => {
    const refused = { route: '/api/v1/devices/:id/calls', status: '400' };
    const before = await scrape(p.apiUrl, 'admin_api_http_requests_total', refused);
    const key = await p.operatorKey();
    const response = await fetch(`${p.apiUrl}/api/v1/devices/${MAC}/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 42 }),
    });
    expect(response.status).toBe(400);
    expect(await scrape(p.apiUrl, 'admin_api_http_requests_total', refused)).toBe(before + 1);
  });

  it('counts a refused device connection by reason', async () => {
    const labels = { reason: 'bad_password' };
    const before = await scrape(p.brokerUrls.http, 'broker_auth_failures_total', labels);
    const clientId = `GID_test@@@${MAC.replaceAll(':', '_')}@@@${randomUUID()}`;
    const username = encodeUsername({ ip: '192.0.2.10' });
    const client = mqtt.connect(p.brokerUrls.mqtt, {
      clientId,
      username,
      password: signMqttPassword('not-the-platform-signing-key', clientId, username),
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    const refusal = await new Promise<Error>((resolve) => client.once('error', resolve));
    await client.endAsync(true);
    expect(refusal.message).toMatch(/Bad username or password/);
    expect(await scrape(p.brokerUrls.http, 'broker_auth_failures_total', labels)).toBe(before + 1);
  });
});
