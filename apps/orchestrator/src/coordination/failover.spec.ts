import { partitionOf } from '@fleet/domain';
import { waitFor, approvalOf, type ServiceProcess } from '@fleet/testing';
import { startPlatform, type Platform } from '../../test/platform-fixture';

describe('orchestrator replicas', () => {
  let p: Platform;
  /** The replicas alive at the end of each test, by replica id. */
  const alive = new Map<string, ServiceProcess>();

  beforeAll(async () => {
    p = await startPlatform({}, { inProcessOrchestrator: false });
  });
  afterAll(() => p.close());

  it('survive a SIGKILL in the middle of a reboot verification: one reboot, one verified call', async () => {
    const first = await p.startOrchestratorProcess('replica-a');
    // A slow boot keeps the reboot's verification open long enough to kill the replica that sent it.
    const device = await p.device({ timings: { bootMs: 2_500 } });
    const requester = await p.operator('Requester');
    const approver = await p.operator('Approver');
    const callId = await p.call({
      device,
      tool: 'self.reboot',
      origin: 'operator',
      operatorId: requester,
      replyTimeoutMs: 500,
    });
    await approvalOf(p.sql, callId); // opened once pre-flight has passed the call
    await p.sql.query(
      `UPDATE approval SET state = 'approved', decided_by = $2, decided_at = now() WHERE call_id = $1`,
      [callId, approver],
    );
    await p.calls.wake(callId, device.mac);
    await p.waitFor(callId, 'verifying');

    alive.set('replica-b', await p.startOrchestratorProcess('replica-b'));
    expect(await first.stop('SIGKILL')).toBe(null);

    const call = await p.waitVerdict(callId, 30_000);
    expect(call.verdict).toBe('verified');
    expect(device.bootCount).toBe(2);
    const reboots = device.observed.received.all.filter((m) => m.text.includes('"self.reboot"'));
    expect(reboots).toHaveLength(1);
    expect((await p.evidence(callId)).map((r) => r.stage)).toEqual([
      'discovery',
      'decision',
      'parameters',
      'response',
      'effect',
    ]);
    const { rows } = await p.sql.query(
      `SELECT holder FROM service_lease WHERE name LIKE 'calls-p%' AND expires_at > now()`,
    );
    await waitFor(
      async () => {
        const held = await p.sql.query(
          `SELECT DISTINCT holder FROM service_lease WHERE name LIKE 'calls-p%' AND expires_at > now()`,
        );
        return held.rows.length === 1 && held.rows[0].holder === 'replica-b';
      },
      { what: 'replica-b holding every partition' },
    );
    expect(rows.length).toBeGreaterThan(0);
  });

  it('share the partitions fairly while both are alive and each call still runs exactly once', async () => {
    alive.set('replica-c', await p.startOrchestratorProcess('replica-c'));
    await waitFor(
      async () => {
        const { rows } = await p.sql.query(
          `SELECT holder, count(*)::int AS n FROM service_lease WHERE name LIKE 'calls-p%' AND expires_at > now() GROUP BY holder`,
        );
        return rows.length === 2 && rows.every((r) => r.n === 8);
      },
      { what: 'eight partitions each', timeoutMs: 20_000 },
    );
    const operator = await p.operator();
    const devices = await Promise.all(Array.from({ length: 6 }, () => p.device()));
    const callIds = await Promise.all(
      devices.map((device) =>
        p.call({ device, tool: 'self.get_device_status', origin: 'operator', operatorId: operator }),
      ),
    );
    for (const id of callIds) expect((await p.waitVerdict(id)).verdict).toBe('verified');
    for (const device of devices) {
      expect(
        device.observed.received.all.filter((m) => m.text.includes('"self.get_device_status"')),
      ).toHaveLength(1);
    }
  });

  it('pair the reply to a call whose sending replica died before pairing it, heard by the one that takes over', async () => {
    // Two replicas alive (those the tests above left, or two of this test's own when it runs alone).
    for (const id of ['replica-d', 'replica-e'])
      if (alive.size < 2) alive.set(id, await p.startOrchestratorProcess(id));
    await waitFor(
      async () => {
        const { rows } = await p.sql.query(
          `SELECT DISTINCT holder FROM service_lease WHERE name LIKE 'calls-p%' AND expires_at > now()`,
        );
        return rows.length === 2;
      },
      { what: 'both replicas holding partitions', timeoutMs: 20_000 },
    );
    const operator = await p.operator();
    // The reply comes a second after the request, inside the dead replica's lease lifetime (1.5 s here): the
    // survivor hears it while it does not own the partition yet.
    const device = await p.device({ faults: { replyDelayMs: 1_000 } });
    const partition = `calls-p${String(partitionOf(device.mac)).padStart(2, '0')}`;
    const { rows } = await p.sql.query<{ holder: string }>(
      'SELECT holder FROM service_lease WHERE name = $1 AND expires_at > now()',
      [partition],
    );
    const sender = rows[0]!.holder;
    const callId = await p.call({
      device,
      tool: 'self.get_device_status',
      origin: 'operator',
      operatorId: operator,
    });
    await p.waitFor(callId, 'sent');
    expect(await alive.get(sender)!.stop('SIGKILL')).toBe(null);
    alive.delete(sender);

    const call = await p.waitVerdict(callId, 30_000);
    expect(call.verdict).toBe('verified');
    const response = (await p.evidence(callId)).find((r) => r.stage === 'response')!;
    expect(response.payload).toMatchObject({ outcome: 'reply' });
    expect(
      device.observed.received.all.filter((m) => m.text.includes('"self.get_device_status"')),
    ).toHaveLength(1);
  });
});
