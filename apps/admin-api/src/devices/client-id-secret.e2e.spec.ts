import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SimDevice } from '@fleet/device-sim';
import { hashClientId } from '@fleet/protocol';
import { waitFor, type ServiceProcess } from '@fleet/testing';
import type { Person } from '../../test/harness';
import { startPlatform, type Platform } from '../../test/platform';

// DESIGN §3: the Client-Id is a device secret. A viewer walks every GET route the API documents for viewers, the
// live event stream and the /mcp read tools, with a real device connected, a forged check-in held in quarantine
// and a call with its evidence on record: the device's Client-Id (and the forged one) appears nowhere, nor in
// what the services logged or count.
describe('the Client-Id as a viewer finds it', () => {
  let p: Platform;
  let orchestrator: ServiceProcess;
  let viewer: Person;
  let operator: Person;
  let device: SimDevice;
  let uuid: string;
  const forged = crypto.randomUUID();
  let callId: string;
  const events: string[] = [];
  const stopEvents = new AbortController();

  beforeAll(async () => {
    p = await startPlatform();
    orchestrator = await p.startOrchestrator('secret-a');
    [viewer, operator] = await Promise.all([p.h.person('viewer'), p.h.person('operator')]);
    // The event stream is open before the device connects: its presence notices are in it.
    const stream = await fetch(`${p.h.baseUrl}/api/v1/events`, {
      headers: { authorization: `Bearer ${viewer.key}` },
      signal: stopEvents.signal,
    });
    void (async () => {
      try {
        for await (const chunk of stream.body!.pipeThrough(new TextDecoderStream())) events.push(chunk);
      } catch {
        // aborted at the end
      }
    })();
    [device] = (await p.fleet({ count: 1, macPrefix: '02:3d:01' })).devices as [SimDevice];
    uuid = device.clientId.split('@@@')[2]!;

    // A forged check-in under the device's MAC, and a check-in of the device itself on another chip.
    const checkIn = (clientId: string, chip: string) =>
      fetch(`${p.brokerUrl}/xiaozhi/ota/`, {
        method: 'POST',
        headers: { 'Device-Id': device.mac, 'Client-Id': clientId, 'User-Agent': 'bread-compact-wifi/2.4.2' },
        body: JSON.stringify({
          uuid: clientId,
          chip_model_name: chip,
          board: { type: 'bread-compact-wifi' },
        }),
      });
    await checkIn(forged, 'esp32s3');
    await checkIn(uuid, 'esp32c3');

    const call = await p.h.request('POST', `/api/v1/devices/${device.mac}/calls`, {
      key: operator.key,
      body: { tool: 'self.get_device_status', arguments: {} },
    });
    callId = call.body.id;
    await waitFor(
      async () => (await p.h.request('GET', `/api/v1/calls/${callId}`, { key: viewer.key })).body.verdict,
      { what: 'the call sealed', timeoutMs: 20_000 },
    );
    device.flap(); // an offline and an online notice on the stream
    await waitFor(() => events.join('').split('event: presence').length > 3, { what: 'presence events' });
  }, 90_000);
  afterAll(async () => {
    stopEvents.abort();
    await p?.close();
  });

  /** Every spelling a leak could take: the UUID in either case, and the full hash (a fingerprint is allowed). */
  function expectNoClientId(text: string, where: string): void {
    for (const secret of [uuid, forged]) {
      for (const form of [secret, secret.toUpperCase(), hashClientId(secret)]) {
        if (text.includes(form)) throw new Error(`${where} shows the Client-Id (${form.slice(0, 8)}…)`);
      }
    }
  }

  it('is in no answer of any route a viewer may read', async () => {
    const document = (await p.h.request('GET', '/docs/json')).body as {
      paths: Record<string, Record<string, { 'x-role': string }>>;
    };
    const viewerRoutes = Object.entries(document.paths)
      .filter(([, ops]) => ops['get']?.['x-role'] === 'viewer')
      .map(([path]) => path);
    const ids: Record<string, string> = { devices: device.mac, calls: callId };
    const walked: string[] = [];
    for (const route of viewerRoutes) {
      if (route === '/api/v1/events') continue; // read as a stream below
      const collection = route.split('/')[3]!;
      const url = route
        .replace('{id}', ids[collection] ?? crypto.randomUUID())
        .replace('{name}', 'self.get_device_status');
      const query = route === '/api/v1/calls' ? `?deviceId=${device.mac}` : '';
      const answer = await p.h.request('GET', `${url}${query}`, { key: viewer.key });
      expectNoClientId(answer.text, `GET ${route}`);
      if (answer.status === 200) walked.push(route);
    }
    for (const format of ['csv', 'json']) {
      const report = await p.h.request('GET', `/api/v1/reports/audit?format=${format}`, { key: viewer.key });
      expect(report.status).toBe(200);
      expectNoClientId(report.text, `the audit report (${format})`);
    }
    expect(walked).toEqual(
      expect.arrayContaining([
        '/api/v1/devices',
        '/api/v1/devices/{id}',
        '/api/v1/devices/{id}/presence',
        '/api/v1/quarantine',
        '/api/v1/calls/{id}',
      ]),
    );

    // What the device page shows instead: fingerprints, and the identity change with its boot report.
    const page = await p.h.request('GET', `/api/v1/devices/${device.mac}`, { key: viewer.key });
    expect(page.body.clientIdFingerprint).toBe(hashClientId(uuid).slice(0, 8));
    expect(page.body.quarantine).toEqual([
      expect.objectContaining({ claimedClientIdFingerprint: hashClientId(forged).slice(0, 8) }),
    ]);
    expect(page.body.identityChanges).toEqual([
      expect.objectContaining({ field: 'chip', previous: 'esp32s3', current: 'esp32c3', source: 'check_in' }),
    ]);
    expect(page.body.identityChanges[0].bootReportId).toEqual(expect.any(String));
  });

  it('is in no live event, no /mcp answer, no log line and no metric', async () => {
    expect(events.join('')).toContain(device.mac);
    expectNoClientId(events.join(''), 'the event stream');

    const client = new Client({ name: 'viewer-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${p.h.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${viewer.key}` } },
      }),
    );
    try {
      for (const [name, args] of [
        ['find_devices', {}],
        ['get_device', { deviceId: device.mac }],
        ['list_device_tools', { deviceId: device.mac }],
        ['get_call', { callId, evidence: 'full' }],
      ] as const) {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(result.isError).toBeFalsy();
        expectNoClientId(JSON.stringify(result), `the /mcp tool ${name}`);
      }
    } finally {
      await client.close();
    }

    expectNoClientId(p.broker.logs.join('\n'), 'the broker log');
    expectNoClientId(orchestrator.logs.join('\n'), 'the orchestrator log');
    for (const url of [p.brokerUrl, p.h.baseUrl]) {
      expectNoClientId(await (await fetch(`${url}/metrics`)).text(), `${url}/metrics`);
    }
    const quarantined = await (await fetch(`${p.brokerUrl}/metrics`)).text();
    expect(quarantined).toMatch(/broker_ota_check_ins_total\{outcome="quarantined",service="broker"\} [1-9]/);
  });
});
