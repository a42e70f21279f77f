import { createHash, randomUUID } from 'node:crypto';
import { partitionOf } from '@fleet/domain';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

// Release health through the API and /metrics: a release whose verified upgrades later rolled back is degraded,
// judged against the version it replaced on the same boards.
describe('release health', () => {
  let h: Harness;
  let viewer: Person;
  let firmwareId: string;

  const hoursAgo = (n: number) => new Date(Date.now() - n * 3600_000);

  beforeAll(async () => {
    h = await startHarness();
    viewer = await h.person('viewer');
    const sha = createHash('sha256').update(randomUUID()).digest('hex');
    await h.pool.query(`INSERT INTO firmware_image (sha256, size, data) VALUES ($1, 1, '\\x00')`, [sha]);
    firmwareId = (
      await h.pool.query<{ id: string }>(
        `INSERT INTO firmware (id, version, project_name, chip, sha256, size, boards, uploaded_by)
         VALUES (gen_random_uuid(), '9.1.0', 'xiaozhi', 'esp32s3', $1, 1, '{rh-board}', $2) RETURNING id`,
        [sha, viewer.operatorId],
      )
    ).rows[0]!.id;
    // Six devices: all ran 9.0.0, were upgraded to 9.1.0 five hours ago (verified), and one came back on 9.0.0.
    const devices = await insertDevices(h.pool, 6, { start: 900 });
    for (const [i, device] of devices.entries()) {
      await h.pool.query(`UPDATE device SET board = 'rh-board' WHERE id = $1`, [device]);
      for (const [version, at] of [
        ['9.0.0', hoursAgo(10)],
        ['9.1.0', hoursAgo(5)],
      ] as const)
        await h.pool.query(
          `INSERT INTO boot_report (device_id, client_id, firmware_version, board, body, received_at)
           VALUES ($1, 'c', $2, 'rh-board', '{}', $3)`,
          [device, version, at],
        );
      const callId = randomUUID();
      await h.pool.query(
        `INSERT INTO call (id, device_id, partition, tool, arguments, origin, state, verdict, deadline_at,
                           created_at, sealed_at)
         VALUES ($1, $2, $3, 'self.upgrade_firmware', $4, 'operator', 'finished', 'verified', $5, $5, $5)`,
        [callId, device, partitionOf(device), { url: `http://h/firmware/${sha}.bin` }, hoursAgo(5.1)],
      );
      if (i === 0)
        await h.pool.query(
          `INSERT INTO upgrade_regression (call_id, device_id, reached_version, reported_version, source, detected_at)
           VALUES ($1, $2, '9.1.0', '9.0.0', 'check_in', $3)`,
          [callId, device, hoursAgo(1)],
        );
    }
  });
  afterAll(() => h.stop());

  it('judges a release against the version it replaced on the same boards, naming the regression', async () => {
    const r = await h.request('GET', `/api/v1/firmware/${firmwareId}/health?windowH=24`, { key: viewer.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      firmwareId,
      boards: ['rh-board'],
      status: 'degraded',
      release: {
        version: '9.1.0',
        devices: 6,
        upgrades: { attempted: 6, verified: 6, effectMismatch: 0, regressions: 1 },
      },
      baseline: { version: '9.0.0', devices: 6, upgrades: null },
      findings: [expect.objectContaining({ signal: 'regressions', value: 1 })],
    });
    expect(r.body.release.deviceHours).toBeCloseTo(30, 1);
    expect(r.body.baseline.deviceHours).toBeCloseTo(30, 1);
  });

  it('exports the release signals beside its baseline for the alert rules', async () => {
    const metrics = (await h.request('GET', '/metrics')).text;
    expect(metrics).toMatch(/^admin_api_release_health\{version="9\.1\.0",signal="regressions"[^}]*\} 1$/m);
    expect(metrics).toMatch(/^admin_api_release_degraded\{version="9\.1\.0"[^}]*\} 1$/m);
    expect(metrics).toMatch(/^admin_api_release_baseline\{version="9\.1\.0",signal="devices"[^}]*\} 6$/m);
  });

  it('answers 404 for a firmware it does not know and 400 naming a bad window', async () => {
    const unknown = await h.request('GET', `/api/v1/firmware/${randomUUID()}/health`, { key: viewer.key });
    expect(unknown.status).toBe(404);
    const bad = await h.request('GET', `/api/v1/firmware/${firmwareId}/health?windowH=0`, {
      key: viewer.key,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].field).toBe('query.windowH');
  });
});
