import { openEfuseKey, wrappingKeyOf } from '@fleet/protocol';
import { startHarness, type Harness, type Person } from '../../test/harness';

const WRAPPING = Buffer.alloc(32, 0x21);
const key = (byte: number) => Buffer.alloc(32, byte).toString('hex');

describe('importing eFuse keys', () => {
  let h: Harness;
  let admin: Person;
  let operator: Person;

  beforeAll(async () => {
    h = await startHarness({ EFUSE_WRAPPING_KEYS: WRAPPING.toString('hex') });
    [admin, operator] = await Promise.all([h.person('admin'), h.person('operator')]);
  });
  afterAll(() => h.stop());

  const upload = (who: Person, csv: string, query = '') =>
    h.request('POST', `/api/v1/serial-keys${query}`, {
      key: who.key,
      raw: Buffer.from(csv),
      headers: { 'content-type': 'text/csv' },
    });

  it('seals each key under the wrapping key with its serial bound in, and shows no key anywhere', async () => {
    const csv = `serial_number,key\nSN-A-0001,${key(1)}\nSN-A-0002,${key(2)}\n`;
    const r = await upload(admin, csv);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ imported: 2, replaced: 0 });
    const { rows } = await h.owner.query(
      `SELECT serial_number, sealed_key, wrapping_key_id FROM device_serial_key ORDER BY serial_number`,
    );
    expect(rows.map((row: { serial_number: string }) => row.serial_number)).toEqual([
      'SN-A-0001',
      'SN-A-0002',
    ]);
    const wrapping = wrappingKeyOf(WRAPPING);
    const opened = openEfuseKey(wrapping, 'SN-A-0001', rows[0].sealed_key as Buffer);
    expect(opened.ok && opened.value.toString('hex')).toBe(key(1));
    expect(rows[0].wrapping_key_id).toBe(wrapping.id);

    const list = await h.request('GET', '/api/v1/serial-keys', { key: admin.key });
    expect(list.body.items).toEqual([
      expect.objectContaining({ serialNumber: 'SN-A-0001', importedBy: admin.operatorId, deviceId: null }),
      expect.objectContaining({ serialNumber: 'SN-A-0002' }),
    ]);
    const audit = await h.owner.query(
      `SELECT details::text AS d FROM audit_event WHERE action = 'serial_keys.import'`,
    );
    expect(audit.rows).toHaveLength(1);
    for (const text of [list.text, r.text, audit.rows[0].d as string]) {
      expect(text).not.toContain(key(1));
      expect(text).not.toContain(key(2));
    }
  });

  it('is for admins only', async () => {
    expect((await upload(operator, `SN-B-0001,${key(3)}`)).status).toBe(403);
    expect((await h.request('GET', '/api/v1/serial-keys', { key: operator.key })).status).toBe(403);
  });

  it('refuses a file with a bad line, naming it, and stores nothing of it', async () => {
    const r = await upload(admin, `SN-C-0001,${key(4)}\nSN-C-0002,not-a-key\n`);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^line 2: key: 64 hex digits/);
    const twice = await upload(admin, `SN-C-0003,${key(4)}\nSN-C-0003,${key(5)}\n`);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/line 2: serial_number: appears twice/);
    const { rowCount } = await h.owner.query(
      `SELECT 1 FROM device_serial_key WHERE serial_number LIKE 'SN-C-%'`,
    );
    expect(rowCount).toBe(0);
  });

  it('replaces a key only when asked to', async () => {
    await upload(admin, `SN-D-0001,${key(6)}`);
    const again = await upload(admin, `SN-D-0001,${key(7)}\nSN-D-0002,${key(8)}`);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('SN-D-0001');
    const { rowCount } = await h.owner.query(
      `SELECT 1 FROM device_serial_key WHERE serial_number = 'SN-D-0002'`,
    );
    expect(rowCount).toBe(0);
    const replaced = await upload(admin, `SN-D-0001,${key(7)}\nSN-D-0002,${key(8)}`, '?replace=true');
    expect(replaced.body).toEqual({ imported: 1, replaced: 1 });
    const { rows } = await h.owner.query(
      `SELECT sealed_key FROM device_serial_key WHERE serial_number = 'SN-D-0001'`,
    );
    const opened = openEfuseKey(wrappingKeyOf(WRAPPING), 'SN-D-0001', rows[0].sealed_key as Buffer);
    expect(opened.ok && opened.value.toString('hex')).toBe(key(7));
  });
});
