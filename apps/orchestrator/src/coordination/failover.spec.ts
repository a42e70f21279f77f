import { waitFor, approvalOf } from '@fleet/testing';
import { startPlatform, type Platform } from '../../test/platform-fixture';

describe('orchestrator replicas', () => {
  let p: Platform;

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

    await p.startOrchestratorProcess('replica-b');
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
    await p.startOrchestratorProcess('replica-c');
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
});
