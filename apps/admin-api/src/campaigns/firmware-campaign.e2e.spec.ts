import { createServer, type Server } from 'node:http';
import type { Fleet } from '@fleet/device-sim';
import { waitFor, type ServiceProcess } from '@fleet/testing';
import { buildEspImage } from '../../test/esp-image';
import type { Json, Person } from '../../test/harness';
import { startPlatform, type Platform } from '../../test/platform';
import { SIGNATURE_HEADER, verifySignature } from '../webhooks/webhook-signature';

// The whole firmware path: a firmware upload and a campaign that rolls it over 100 simulated devices in batches,
// leaves offline ones waiting, aborts when a tenth of them are made to fail, and resumes after a restart; a
// webhook received by a test server. Everything through the REST API, with the real broker and orchestrator.
describe('a firmware campaign over a simulated fleet of 100', () => {
  let p: Platform;
  let replicaA: ServiceProcess;
  let creator: Person;
  let approver: Person;
  let admin: Person;
  let fleet: Fleet;
  let webhooks: Server;
  const received: { event: string; body: string; signature: string }[] = [];
  const secret = 'e2e-webhook-secret-0123456789';

  beforeAll(async () => {
    p = await startPlatform();
    replicaA = await p.startOrchestrator('replica-a');
    [creator, approver, admin] = await Promise.all([
      p.h.person('operator'),
      p.h.person('operator'),
      p.h.person('admin'),
    ]);
    webhooks = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({
          event: String(req.headers['x-fleet-event']),
          body,
          signature: String(req.headers[SIGNATURE_HEADER]),
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => webhooks.listen(0, '127.0.0.1', resolve));
    const port = (webhooks.address() as { port: number }).port;
    const hook = await p.h.request('POST', '/api/v1/webhooks', {
      key: admin.key,
      body: { url: `http://127.0.0.1:${port}/hook`, events: ['campaign.aborted'], secret },
    });
    expect(hook.status).toBe(201);
    // The first ten devices fail their download: a tenth of the fleet.
    fleet = await p.fleet({
      count: 100,
      macPrefix: '02:e2:e0',
      perDevice: (i) => (i < 10 ? { faults: { failUpgrades: true } } : {}),
    });
  }, 180_000);
  afterAll(async () => {
    webhooks?.close();
    await p?.close();
  });

  async function upload(version: string): Promise<string> {
    const res = await p.h.request('POST', '/api/v1/firmware?boards=bread-compact-wifi', {
      key: admin.key,
      raw: buildEspImage({ version, chipId: 9 }),
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function startApproved(body: Record<string, unknown>): Promise<string> {
    const created = await p.h.request('POST', '/api/v1/campaigns', { key: creator.key, body });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(
      (await p.h.request('POST', `/api/v1/campaigns/${id}/start`, { key: creator.key })).body.state,
    ).toBe('awaiting_approval');
    expect((await p.h.request('POST', `/api/v1/campaigns/${id}/approve`, { key: creator.key })).status).toBe(
      403,
    ); // four eyes
    expect(
      (await p.h.request('POST', `/api/v1/campaigns/${id}/approve`, { key: approver.key })).body.state,
    ).toBe('running');
    return id;
  }

  const campaign = async (id: string): Promise<Json> =>
    (await p.h.request('GET', `/api/v1/campaigns/${id}`, { key: creator.key })).body;

  it('rolls out in batches, leaves offline devices waiting, survives a SIGKILL of the orchestrator, and sends nothing twice', async () => {
    const firmwareId = await upload('2.5.0');
    const online = fleet.devices.slice(10, 60);
    const offline = fleet.devices.slice(60, 63);
    await Promise.all(offline.map((d) => d.stop()));
    await waitFor(async () => {
      const { rows } = await p.h.owner.query(
        'SELECT count(*)::int AS n FROM device WHERE id = ANY($1) AND NOT online',
        [offline.map((d) => d.mac)],
      );
      return rows[0].n === offline.length;
    });
    const id = await startApproved({
      name: 'upgrade to 2.5.0',
      selector: { deviceIds: [...online, ...offline].map((d) => d.mac) },
      action: { kind: 'firmware', firmwareId, via: 'mcp' },
      rollout: { batchSize: 10, maxInFlight: 5 },
      abortRule: { failureRate: 0.1, minDevices: 10 },
      deviceTimeoutS: 30,
    });

    let inFlightMax = 0;
    await waitFor(
      async () => {
        const c = await campaign(id);
        inFlightMax = Math.max(inFlightMax, c.progress.in_progress);
        return c.progress.verified >= 15;
      },
      { what: 'a third of the rollout', timeoutMs: 60_000, intervalMs: 50 },
    );
    await p.startOrchestrator('replica-b');
    expect(await replicaA.stop('SIGKILL')).toBe(null);

    const done = await waitFor(
      async () => {
        const c = await campaign(id);
        inFlightMax = Math.max(inFlightMax, c.progress.in_progress);
        return c.progress.verified === online.length && c.progress.waiting_for_device === offline.length && c;
      },
      { what: 'every online device verified, the offline ones waiting', timeoutMs: 120_000, intervalMs: 100 },
    );
    expect(done.progress.failed).toBe(0);
    expect(inFlightMax).toBeLessThanOrEqual(5);
    for (const device of online) {
      expect(device.version).toBe('2.5.0');
      expect(
        device.observed.received.all.filter((m) => m.text.includes('self.upgrade_firmware')),
      ).toHaveLength(1);
    }
    // Each device's decision row cites the campaign's approval.
    const { rows } = await p.h.owner.query(
      `SELECT e.payload->'approval'->>'decidedBy' AS approver FROM evidence e JOIN call c ON c.id = e.call_id
        WHERE c.campaign_id = $1 AND e.stage = 'decision' LIMIT 1`,
      [id],
    );
    expect(rows[0].approver).toBe(approver.operatorId);
  }, 240_000);

  it('aborts when a tenth of the devices fail, and says so to a webhook with a valid signature', async () => {
    const firmwareId = await upload('2.6.0');
    const devices = [...fleet.devices.slice(0, 10), ...fleet.devices.slice(63, 93)];
    const id = await startApproved({
      name: 'upgrade to 2.6.0',
      selector: { deviceIds: devices.map((d) => d.mac) },
      action: { kind: 'firmware', firmwareId, via: 'mcp' },
      rollout: { batchSize: 20, maxInFlight: 20 },
      abortRule: { failureRate: 0.1, minDevices: 10 },
      deviceTimeoutS: 30,
    });
    const aborted = await waitFor(
      async () => (await campaign(id)).state === 'aborted' && (await campaign(id)),
      {
        what: 'the abort',
        timeoutMs: 120_000,
        intervalMs: 100,
      },
    );
    expect(aborted.progress.failed).toBeGreaterThanOrEqual(2);
    const hook = await waitFor(
      () => received.find((r) => r.event === 'campaign.aborted' && r.body.includes(id)),
      { what: 'the webhook', timeoutMs: 30_000 },
    );
    expect(verifySignature(secret, hook.body, hook.signature)).toBe(true);
  }, 240_000);
});
