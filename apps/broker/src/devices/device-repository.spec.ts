import { Pool } from 'pg';
import {
  countStatements,
  createTestDatabase,
  type StatementCounter,
  type TestDatabase,
} from '@fleet/testing';
import type { Mac } from '@fleet/protocol';
import { DeviceRepository, type BootFacts } from './device-repository';

const macOf = (i: number): Mac =>
  `02:7e:00:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`;

const boot = (mac: Mac, overrides: Partial<BootFacts> = {}): BootFacts => ({
  mac,
  clientIdHash: `uuid-${mac}`,
  firmwareVersion: '2.4.2',
  board: 'bread-compact-wifi',
  boardName: 'bread-compact-wifi',
  otaLabel: 'ota_0',
  chipModel: 'esp32s3',
  remoteAddress: '127.0.0.1',
  userAgent: 'bread-compact-wifi/2.4.2',
  body: { version: 2 },
  complaints: [],
  firmwareOffered: undefined,
  updatesDevice: true,
  ...overrides,
});

describe('the device repository under concurrent check-ins', () => {
  let db: TestDatabase;
  let pool: Pool;
  let queries: StatementCounter;
  let devices: DeviceRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    queries = countStatements(pool);
    devices = new DeviceRepository(pool);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });
  beforeEach(() => queries.reset());

  it('answers many concurrent first sights, reads and boot reports with one statement each', async () => {
    const macs = Array.from({ length: 50 }, (_, i) => macOf(i));
    const created = await Promise.all(
      macs.map((mac) =>
        devices.createOnFirstSight({
          mac,
          clientIdHash: `uuid-${mac}`,
          serialNumber: undefined,
          status: 'active',
        }),
      ),
    );
    expect(created.map((d) => d.id)).toEqual(macs);
    const found = await Promise.all([...macs, macOf(999)].map((mac) => devices.find(mac)));
    expect(found.map((d) => d?.clientIdHash)).toEqual([...macs.map((mac) => `uuid-${mac}`), undefined]);
    await Promise.all(macs.map((mac) => devices.recordBoot(boot(mac))));
    expect(queries.count).toBe(3);
    const { rows } = await pool.query<{ n: number; booted: number }>(
      `SELECT (SELECT count(*)::int FROM boot_report) AS n,
              (SELECT count(*)::int FROM device WHERE last_boot_at IS NOT NULL AND ota_label = 'ota_0') AS booted`,
    );
    expect(rows[0]).toEqual({ n: 50, booted: 50 });
  });

  it('lets the first of two concurrent first sights of a MAC win, and both read its row', async () => {
    const mac = macOf(100);
    const [first, second] = await Promise.all([
      devices.createOnFirstSight({ mac, clientIdHash: 'first', serialNumber: undefined, status: 'active' }),
      devices.createOnFirstSight({ mac, clientIdHash: 'second', serialNumber: undefined, status: 'active' }),
    ]);
    expect([first.clientIdHash, second.clientIdHash]).toEqual(['first', 'first']);
  });

  it('takes the latest of two boots of one device in a batch, and a bad report fails only its own caller', async () => {
    const mac = macOf(101);
    await devices.createOnFirstSight({ mac, clientIdHash: 'x', serialNumber: undefined, status: 'active' });
    const results = await Promise.allSettled([
      devices.recordBoot(boot(mac, { firmwareVersion: '2.4.2' })),
      devices.recordBoot(boot(mac, { firmwareVersion: '2.4.3' })),
      // Postgres' jsonb refuses \u0000: this one row must not take the others down with it.
      devices.recordBoot(boot(macOf(0), { body: { text: 'nul \u0000 inside' } })),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const { rows } = await pool.query('SELECT firmware_version FROM device WHERE id = $1', [mac]);
    expect(rows[0].firmware_version).toBe('2.4.3');
  });

  it("reads a check-in's device row and its assigned firmware in the one statement every read shares", async () => {
    const [assignedMac, plainMac] = [macOf(200), macOf(201)];
    const [fresh] = await Promise.all(
      [assignedMac, plainMac].map((mac) =>
        devices.createOnFirstSight({
          mac,
          clientIdHash: `uuid-${mac}`,
          serialNumber: undefined,
          status: 'active',
        }),
      ),
    );
    expect(fresh?.created).toBe(true);
    const sha = 'ab'.repeat(32);
    await pool.query(
      `INSERT INTO operator (id, email, name, role) VALUES ('00000000-0000-4000-8000-000000000002', 'b@x', 'B', 'admin')`,
    );
    await pool.query(`INSERT INTO firmware_image (sha256, size, data) VALUES ($1, 1, '\\x00'::bytea)`, [sha]);
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO firmware (id, version, project_name, chip, sha256, size, boards, uploaded_by)
       VALUES (gen_random_uuid(), '2.5.0', 'xiaozhi', 'esp32s3', $1, 1, '{bread-compact-wifi}',
               '00000000-0000-4000-8000-000000000002') RETURNING id`,
      [sha],
    );
    await pool.query(`INSERT INTO firmware_assignment (device_id, firmware_id) VALUES ($1, $2)`, [
      assignedMac,
      rows[0]!.id,
    ]);
    queries.reset();
    const [assigned, plain, connecting, unknown] = await Promise.all([
      devices.findForCheckIn(assignedMac),
      devices.findForCheckIn(plainMac),
      devices.find(assignedMac),
      devices.findForCheckIn(macOf(999)),
    ]);
    expect(queries.count).toBe(1);
    expect(assigned).toMatchObject({
      device: { id: assignedMac },
      assigned: { firmwareId: rows[0]!.id, version: '2.5.0', sha256: sha },
    });
    expect(plain).toMatchObject({ device: { id: plainMac }, assigned: undefined });
    expect(connecting?.clientIdHash).toBe(`uuid-${assignedMac}`);
    expect(unknown).toEqual({ device: undefined, assigned: undefined });
    // A first sight that lost the race reads the winner's row back: not one this caller created.
    const again = await devices.createOnFirstSight({
      mac: plainMac,
      clientIdHash: 'late',
      serialNumber: undefined,
      status: 'active',
    });
    expect(again.created).toBeUndefined();
  });
});
