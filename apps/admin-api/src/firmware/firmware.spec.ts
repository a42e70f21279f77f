import { createHash } from 'node:crypto';
import { buildEspImage } from '../../test/esp-image';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

describe('the firmware registry', () => {
  let h: Harness;
  let admin: Person;
  let operator: Person;

  beforeAll(async () => {
    h = await startHarness({ PUBLIC_HTTP_URL: 'http://devices.example:8081' });
    admin = await h.person('admin');
    operator = await h.person('operator');
    await insertDevices(h.pool, 3, { board: 'bread-compact-wifi', chip: 'esp32s3' });
    await insertDevices(h.pool, 2, { start: 100, board: 'esp32c3-mini', chip: 'ESP32-C3' });
  });
  afterAll(() => h.stop());

  const upload = (image: Buffer, boards: string, key = admin.key) =>
    h.request('POST', `/api/v1/firmware?boards=${boards}`, { key, raw: image });

  it('registers an image from its app descriptor: version, project, chip, sha256, boards, download URL', async () => {
    const image = buildEspImage({ version: '1.7.2', project: 'xiaozhi', chipId: 9 });
    const sha256 = createHash('sha256').update(image).digest('hex');
    const r = await upload(image, 'bread-compact-wifi');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      version: '1.7.2',
      projectName: 'xiaozhi',
      chip: 'esp32s3',
      sha256,
      size: image.length,
      boards: ['bread-compact-wifi'],
      uploadedBy: admin.operatorId,
      created: true,
      idfVersion: 'v5.4.1',
      downloadUrl: `http://devices.example:8081/firmware/${sha256}.bin`,
      warnings: [],
    });
    const stored = await h.pool.query('SELECT data, size FROM firmware_image WHERE sha256 = $1', [sha256]);
    expect(Buffer.compare(stored.rows[0].data, image)).toBe(0);
    const list = await h.request('GET', '/api/v1/firmware', { key: operator.key });
    expect(list.body.map((f: { id: string }) => f.id)).toContain(r.body.id);
  });

  it('answers a second upload of the same bytes with the first registration', async () => {
    const image = buildEspImage({ version: '1.7.3' });
    const first = await upload(image, 'bread-compact-wifi');
    const second = await upload(image, 'bread-compact-wifi');
    expect(second.body).toMatchObject({ id: first.body.id, created: false });
    const n = await h.pool.query('SELECT count(*)::int AS n FROM firmware WHERE version = $1', ['1.7.3']);
    expect(n.rows[0].n).toBe(1);
  });

  it('refuses what is not an ESP app image', async () => {
    const r = await upload(buildEspImage({ magic: 0x00 }), 'bread-compact-wifi');
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'not_an_esp_image', message: expect.stringMatching(/0xe9/) });
  });

  it('refuses an image whose segment checksum is broken, saying which check failed with expected and found', async () => {
    const image = buildEspImage({ version: '1.8.1', hashAppended: false });
    const stored = image[image.length - 1]!;
    image[image.length - 1] = stored ^ 0x5a;
    const r = await upload(image, 'bread-compact-wifi');
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      code: 'image_corrupt',
      message: expect.stringMatching(/checksum/),
      failed: {
        check: 'checksum',
        expected: `0x${stored.toString(16).padStart(2, '0')}`,
        found: `0x${(stored ^ 0x5a).toString(16).padStart(2, '0')}`,
      },
    });
    const none = await h.pool.query(`SELECT count(*)::int AS n FROM firmware WHERE version = '1.8.1'`);
    expect(none.rows[0].n).toBe(0);
  });

  it('refuses an image whose appended SHA-256 does not match, and one cut short inside a segment', async () => {
    const image = buildEspImage({ version: '1.8.2' });
    image[image.length - 3]! ^= 0x01;
    const hash = await upload(image, 'bread-compact-wifi');
    expect(hash.status).toBe(422);
    expect(hash.body).toMatchObject({ code: 'image_corrupt', failed: { check: 'sha256' } });
    const cut = await upload(buildEspImage({ version: '1.8.2' }).subarray(0, 1500), 'bread-compact-wifi');
    expect(cut.status).toBe(422);
    expect(cut.body).toMatchObject({
      code: 'image_corrupt',
      failed: { check: 'segment_bounds', found: '1500' },
    });
  });

  it("refuses an image whose header claims more flash than a board's devices reported at boot", async () => {
    const [mac] = await insertDevices(h.pool, 1, { start: 200, board: 'small-flash-board', chip: 'esp32s3' });
    await h.pool.query(
      `INSERT INTO boot_report (device_id, client_id, body) VALUES ($1, 'client-200', '{"flash_size":4194304}')`,
      [mac],
    );
    const big = await upload(buildEspImage({ version: '1.8.3', flashSize: 4 }), 'small-flash-board');
    expect(big.status).toBe(422);
    expect(big.body).toMatchObject({
      code: 'flash_size_mismatch',
      failed: { check: 'flash_size', expected: 'at most 4 MB', found: '16 MB' },
    });
    const fits = await upload(buildEspImage({ version: '1.8.3', flashSize: 2 }), 'small-flash-board');
    expect(fits.status).toBe(201);
    expect(fits.body).toMatchObject({ flash: { mode: 'dio', sizeBytes: 4194304 }, hashAppended: true });
  });

  it('refuses a version a device would crash comparing', async () => {
    const r = await upload(buildEspImage({ version: '1.8.0-rc1' }), 'bread-compact-wifi');
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('unsafe_version');
    const none = await h.pool.query(`SELECT count(*)::int AS n FROM firmware WHERE version = '1.8.0-rc1'`);
    expect(none.rows[0].n).toBe(0);
  });

  it("refuses an image whose chip is not the one a declared board's devices report", async () => {
    const r = await upload(buildEspImage({ version: '1.9.0', chipId: 9 }), 'bread-compact-wifi,esp32c3-mini');
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'chip_mismatch', issues: [{ field: 'query.boards' }] });
    expect(r.body.failed).toEqual({ check: 'chip', expected: 'ESP32-C3', found: 'esp32s3' });
    const c3 = await upload(buildEspImage({ version: '1.9.0', chipId: 5 }), 'esp32c3-mini');
    expect(c3.status).toBe(201);
  });

  it('accepts a board no device has reported yet, saying it could not check it', async () => {
    const r = await upload(buildEspImage({ version: '2.0.0' }), 'brand-new-board');
    expect(r.status).toBe(201);
    expect(r.body.warnings).toEqual([expect.stringMatching(/brand-new-board/)]);
  });

  it('wants the boards, the bytes, and an admin', async () => {
    const noBoards = await h.request('POST', '/api/v1/firmware', { key: admin.key, raw: buildEspImage() });
    expect(noBoards.status).toBe(400);
    expect(noBoards.body.issues[0].field).toBe('query.boards');
    const json = await h.request('POST', '/api/v1/firmware?boards=x', {
      key: admin.key,
      body: { image: 'base64?' },
    });
    expect(json.status).toBe(400);
    expect(json.body.issues[0].field).toBe('body');
    const png = await h.request('POST', '/api/v1/firmware?boards=x', {
      key: admin.key,
      raw: buildEspImage(),
      headers: { 'content-type': 'image/png' },
    });
    expect(png).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    expect((await upload(buildEspImage({ version: '3.0.0' }), 'x', operator.key)).status).toBe(403);
  });
});
