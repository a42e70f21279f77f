import { Pool } from 'pg';
import { createDatabase } from '@fleet/db';
import { createLogger } from '@fleet/telemetry';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { UpgradeRegressionRepository } from './upgrade-regression-repository';
import { UpgradeRegressionWatch, type RegressionOutcome } from './upgrade-regression-watch';

const SHA = 'ab'.repeat(32);

describe('the upgrade regression watch', () => {
  let db: TestDatabase;
  let pool: Pool;
  let watch: UpgradeRegressionWatch;
  const notices: { event: string; payload: Record<string, unknown> }[] = [];
  const outcomes: RegressionOutcome[] = [];
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    watch = new UpgradeRegressionWatch(
      new UpgradeRegressionRepository(createDatabase(pool)),
      { notify: (event, payload) => Promise.resolve(notices.push({ event, payload })) },
      createLogger('test', 'silent'),
      (o) => outcomes.push(o),
    );
    await pool.query(
      `INSERT INTO operator (id, email, name, role) VALUES ('00000000-0000-4000-8000-000000000001', 'a@x', 'Admin', 'admin')`,
    );
    await pool.query(`INSERT INTO firmware_image (sha256, size, data) VALUES ($1, 1, '\\x00'::bytea)`, [SHA]);
    await pool.query(
      `INSERT INTO firmware (id, version, project_name, chip, sha256, size, boards, uploaded_by)
       VALUES (gen_random_uuid(), '2.5.0', 'xiaozhi', 'esp32s3', $1, 1, '{bread-compact-wifi}',
               '00000000-0000-4000-8000-000000000001')`,
      [SHA],
    );
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  /** A device that ran 2.5.0 after a verified upgrade to it, and has checked in once since. */
  async function upgradedDevice(verdict = 'verified'): Promise<{ mac: string; callId: string }> {
    const mac = `02:00:00:00:01:${String(++n).padStart(2, '0')}`;
    await pool.query(
      `INSERT INTO device (id, client_id, firmware_version, updated_at) VALUES ($1, 'h', '2.5.0', now())`,
      [mac],
    );
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, state, verdict, deadline_at, sent_at, sealed_at)
       VALUES (gen_random_uuid(), $1, 0, 'self.upgrade_firmware', $2, 'operator', 'finished', $3::"Verdict",
               now() + interval '1 hour', now() - interval '2 minutes', now() - interval '1 minute')
       RETURNING id`,
      [mac, { url: `http://fw.example/firmware/${SHA}.bin` }, verdict],
    );
    await pool.query(
      `INSERT INTO boot_report (device_id, client_id, firmware_version, body) VALUES ($1, 'h', '2.4.2', '{}')`,
      [mac],
    );
    return { mac, callId: rows[0]!.id };
  }

  const report = (mac: string, previousVersion: string | null, reportedVersion: string) =>
    watch.seen({ mac, previousVersion, reportedVersion, reportedOtaLabel: 'ota_0', at: new Date() });

  it('records a device back on an older version than a verified upgrade reached, once, with a webhook', async () => {
    const { mac, callId } = await upgradedDevice();
    expect(await report(mac, '2.5.0', '2.4.2')).toBe('recorded');
    expect(await report(mac, '2.5.0', '2.4.2')).toBe('known');
    const { rows } = await pool.query(
      `SELECT r.call_id, r.reached_version, r.reported_version, r.reported_ota_label, r.source,
              r.boot_report_id = (SELECT max(id) FROM boot_report WHERE device_id = $1) AS cites_latest_boot
         FROM upgrade_regression r WHERE r.device_id = $1`,
      [mac],
    );
    expect(rows).toEqual([
      {
        call_id: callId,
        reached_version: '2.5.0',
        reported_version: '2.4.2',
        reported_ota_label: 'ota_0',
        source: 'check_in',
        cites_latest_boot: true,
      },
    ]);
    expect(notices.filter((x) => x.payload['deviceId'] === mac)).toEqual([
      {
        event: 'upgrade.regressed',
        payload: expect.objectContaining({ callId, reachedVersion: '2.5.0', reportedVersion: '2.4.2' }),
      },
    ]);
    const call = await pool.query('SELECT verdict FROM call WHERE id = $1', [callId]);
    expect(call.rows[0].verdict).toBe('verified');
  });

  it('lets a report no lower than the previous version through, and ignores upgrades that were not verified', async () => {
    const { mac } = await upgradedDevice();
    expect(await report(mac, '2.5.0', '2.5.0')).toBe('not_lower');
    expect(await report(mac, '2.4.2', '2.5.1')).toBe('not_lower');
    const failed = await upgradedDevice('effect_mismatch');
    expect(await report(failed.mac, '2.5.0', '2.4.2')).toBe('no_verified_upgrade');
    const none = await pool.query(
      'SELECT count(*)::int AS n FROM upgrade_regression WHERE device_id = ANY($1)',
      [[mac, failed.mac]],
    );
    expect(none.rows[0].n).toBe(0);
  });

  it('does not count a drop that stays at or above the version the upgrade reached', async () => {
    const { mac } = await upgradedDevice();
    expect(await report(mac, '2.6.0', '2.5.0')).toBe('not_a_regression');
  });

  it('keeps regressions append-only for the application role', async () => {
    const { mac } = await upgradedDevice();
    await report(mac, '2.5.0', '2.4.2');
    await expect(pool.query(`UPDATE upgrade_regression SET reported_version = '9'`)).rejects.toThrow(
      /permission denied/,
    );
    await expect(pool.query('DELETE FROM upgrade_regression')).rejects.toThrow(/permission denied/);
  });
});
