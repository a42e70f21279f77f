import { randomUUID } from 'node:crypto';
import { partitionOf } from '@fleet/domain';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createPgPool, type Pool } from '../../client/pg-pool';
import { replacedVersion, versionSignals, activeVersions } from './release-signals.repository';

const T0 = Date.parse('2026-12-01T00:00:00Z');
const at = (hours: number) => new Date(T0 + hours * 3600_000);
const SHA = 'a'.repeat(64);
const window = { since: at(0), until: at(10), regressionWithinHours: 24 };

/**
 * A small fleet's day, by hand: A (board b1) is upgraded from 2.4.2 to 2.5.0 at +1 h, drops off from +3 h to
 * +4 h, and is later found back on 2.4.2 (a regression); B (b1) is asked to upgrade at +2 h and never does
 * (effect_mismatch); C (b2) boots into 2.5.0 at +5 h. B's calls on 2.4.2 include a device_error and a no_response.
 */
async function seed(pool: Pool): Promise<void> {
  const operator = randomUUID();
  await pool.query(`INSERT INTO operator (id, email, name, role) VALUES ($1, 'o@x', 'O', 'operator')`, [
    operator,
  ]);
  await pool.query(`INSERT INTO firmware_image (sha256, size, data) VALUES ($1, 1, '\\x00')`, [SHA]);
  await pool.query(
    `INSERT INTO firmware (id, version, project_name, chip, sha256, size, boards, uploaded_by)
     VALUES (gen_random_uuid(), '2.5.0', 'xiaozhi', 'esp32s3', $1, 1, '{b1,b2}', $2)`,
    [SHA, operator],
  );
  for (const [id, board] of [
    ['A', 'b1'],
    ['B', 'b1'],
    ['C', 'b2'],
  ] as const)
    await pool.query(`INSERT INTO device (id, client_id, board, updated_at) VALUES ($1, 'c', $2, now())`, [
      id,
      board,
    ]);
  const boot = (device: string, board: string, version: string, hours: number) =>
    pool.query(
      `INSERT INTO boot_report (device_id, client_id, firmware_version, board, body, received_at)
       VALUES ($1, 'c', $2, $3, '{}', $4)`,
      [device, version, board, at(hours)],
    );
  const connection = (device: string, from: number, to: number | null) =>
    pool.query(
      `INSERT INTO connection (id, device_id, client_id, broker_id, keepalive, opened_at, closed_at)
       VALUES ($1, $2, 'c', 'b', 60, $3, $4)`,
      [randomUUID(), device, at(from), to === null ? null : at(to)],
    );
  const call = async (device: string, tool: string, verdict: string, hours: number, url?: string) => {
    const id = randomUUID();
    await pool.query(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, state, verdict, deadline_at, created_at,
                         sealed_at)
       VALUES ($1, $2, $3, $4, $5, 'operator', 'finished', $6, $7, $7, $7)`,
      [id, device, partitionOf(device), tool, url ? { url } : {}, verdict, at(hours)],
    );
    return id;
  };
  const url = `http://h/firmware/${SHA}.bin`;
  await boot('A', 'b1', '2.4.2', -1);
  await connection('A', -1, 1);
  const upgradeA = await call('A', 'self.upgrade_firmware', 'verified', 0.9, url);
  await boot('A', 'b1', '2.5.0', 1);
  await connection('A', 1, 3);
  await connection('A', 4, null);
  await call('A', 'self.get_device_status', 'verified', 5);
  await pool.query(
    `INSERT INTO upgrade_regression (call_id, device_id, reached_version, reported_version, source, detected_at)
     VALUES ($1, 'A', '2.5.0', '2.4.2', 'check_in', $2)`,
    [upgradeA, at(9.5)],
  );
  await boot('B', 'b1', '2.4.2', -1);
  await connection('B', -1, null);
  await call('B', 'self.upgrade_firmware', 'effect_mismatch', 2, url);
  for (const verdict of ['device_error', 'no_response', 'verified', 'verified'])
    await call('B', 'self.audio_speaker.set_volume', verdict, 3);
  await boot('C', 'b2', '2.4.2', 0);
  await connection('C', -0.5, 5);
  await boot('C', 'b2', '2.5.0', 5);
  await connection('C', 5, null);
}

describe('release signals', () => {
  let tdb: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    pool = createPgPool(tdb.ownerUrl, { max: 2 });
    await seed(pool);
  });
  afterAll(async () => {
    await pool.end();
    await tdb.drop();
  });

  it('finds the version a release replaced, and the boards it runs on', async () => {
    expect(await replacedVersion(pool, '2.5.0', window)).toEqual({ baseline: '2.4.2', boards: ['b1', 'b2'] });
  });

  it('counts what a release did: device-hours, reconnects, offline time, upgrades and the regression after one', async () => {
    const s = await versionSignals(pool, '2.5.0', ['b1', 'b2'], window);
    expect(s).toMatchObject({
      version: '2.5.0',
      devices: 2,
      upgrades: { verified: 1, effectMismatch: 1, failed: 0 },
      regressions: 1,
      reconnects: 1,
      calls: { total: 1, deviceError: 0, noResponse: 0 },
    });
    expect(s.deviceHours).toBeCloseTo(9 + 5, 6); // A from +1 h, C from +5 h, until +10 h
    expect(s.offlineHours).toBeCloseTo(1, 6); // A between +3 h and +4 h
  });

  it('counts the version it replaced on the same boards, with its call mix, and no upgrades when none were to it', async () => {
    const s = await versionSignals(pool, '2.4.2', ['b1', 'b2'], window);
    expect(s).toMatchObject({
      devices: 3,
      upgrades: null,
      reconnects: 0,
      calls: { total: 6, deviceError: 1, noResponse: 1 },
    });
    expect(s.deviceHours).toBeCloseTo(1 + 10 + 5, 6);
    expect(s.offlineHours).toBeCloseTo(0, 6);
  });

  it('leaves a rollback found after the regression window out', async () => {
    const s = await versionSignals(pool, '2.5.0', [], { ...window, regressionWithinHours: 2 });
    expect(s.regressions).toBe(0);
  });

  it('lists the versions that ran within the window, most device-hours first', async () => {
    expect(await activeVersions(pool, window)).toEqual(['2.4.2', '2.5.0']);
  });
});
