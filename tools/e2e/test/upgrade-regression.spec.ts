import { buildAppImage, type SimDevice } from '@fleet/device-sim';
import { generateApiKey } from '@fleet/auth';
import { waitFor } from '@fleet/testing';
import { startE2ePlatform, type E2ePlatform } from './platform';

const UPGRADE = 'self.upgrade_firmware';

/**
 * Upgrades that do not last (DESIGN §5, xiaozhi §4.3): the registry refuses what a device's bootloader would,
 * an image that dies before its first check-in comes back old (`effect_mismatch`), and one that never confirms
 * itself is verified, then rolled back by the bootloader at a later reboot: a regression linked to the upgrade.
 */
describe('upgrades that do not last, through the real broker', () => {
  let p: E2ePlatform;
  let requester: string;
  let approver: string;
  let admin: string;
  let operatorId: string;

  beforeAll(async () => {
    p = await startE2ePlatform({ orchestratorEnv: { UPGRADE_VERIFY_MS: '20000' } });
    [requester, approver, admin] = [await p.operatorKey(), await p.operatorKey(), await adminKey()];
    operatorId = (await p.sql.query<{ id: string }>(`SELECT id FROM operator LIMIT 1`)).rows[0]!.id;
    await p.sql.query(
      `INSERT INTO webhook (id, url, secret, events, created_by)
       VALUES (gen_random_uuid(), 'https://hooks.example.com/fleet', 's3cret', '{upgrade.regressed}', $1)`,
      [operatorId],
    );
  }, 90_000);
  afterAll(() => p?.close());

  async function adminKey(): Promise<string> {
    const { rows } = await p.sql.query<{ id: string }>(
      `INSERT INTO operator (id, email, name, role)
       VALUES (gen_random_uuid(), gen_random_uuid() || '@example.com', 'E2E Admin', 'admin') RETURNING id`,
    );
    const key = generateApiKey();
    await p.sql.query(
      `INSERT INTO api_key (id, operator_id, name, prefix, secret_hash, role)
       VALUES (gen_random_uuid(), $1, 'e2e-admin', $2, $3, 'admin')`,
      [rows[0]!.id, key.prefix, key.secretHash],
    );
    return key.plaintext;
  }

  async function api(key: string, method: string, path: string, body?: unknown) {
    const raw = Buffer.isBuffer(body);
    const res = await fetch(`${p.apiUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined
          ? {}
          : { 'content-type': raw ? 'application/octet-stream' : 'application/json' }),
      },
      ...(body === undefined ? {} : { body: raw ? body : JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** Registers an image through the API, as an admin would; answers its download URL. */
  async function register(version: string): Promise<string> {
    const r = await api(admin, 'POST', '/firmware?boards=bread-compact-wifi', buildAppImage({ version }));
    expect(r.status).toBe(201);
    return r.body['downloadUrl'] as string;
  }

  /** An operator asks for the upgrade, another approves it; answers the call id. */
  async function upgrade(device: SimDevice, url: string): Promise<string> {
    const created = await api(requester, 'POST', `/devices/${device.mac}/calls`, {
      tool: UPGRADE,
      arguments: { url },
    });
    expect(created.status).toBe(202);
    // An approval is decidable once the orchestrator's pre-flight has passed the call (DESIGN §4): until then
    // it answers 409 approval_not_ready, and a person's console shows nothing to decide.
    const approved = await waitFor(
      async () => {
        const r = await api(approver, 'POST', `/approvals/${String(created.body['approvalId'])}/approve`, {});
        return r.body['code'] === 'approval_not_ready' ? false : r;
      },
      { what: 'the upgrade approvable after pre-flight', timeoutMs: 10_000 },
    );
    expect(approved.status).toBe(200);
    return created.body['id'] as string;
  }

  const sealed = (callId: string) =>
    waitFor(
      async () => {
        const r = await api(requester, 'GET', `/calls/${callId}`);
        return r.body['verdict'] ? r.body : undefined;
      },
      { what: `the verdict of ${callId}`, timeoutMs: 30_000 },
    );

  it('refuses at upload an image whose checksum a device would refuse, naming the check', async () => {
    const image = buildAppImage({ version: '2.4.9' });
    image[1000]! ^= 0x01;
    const r = await api(admin, 'POST', '/firmware?boards=bread-compact-wifi', image);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'image_corrupt', failed: { check: 'checksum' } });
  });

  it('seals effect_mismatch when the new image crashes before its first check-in and the old one comes back', async () => {
    const device = await p.device('02:e2:00:00:0f:01', { faults: { rollbackUpgrades: 'before-check-in' } });
    const url = await register('2.5.0');
    const callId = await upgrade(device, url);
    const call = await sealed(callId);
    expect(call).toMatchObject({ verdict: 'effect_mismatch', rolledBackLater: null });
    expect(call['verdictReason']).toContain('running 2.4.2, not 2.5.0');
    expect(device.version).toBe('2.4.2');
    const none = await p.sql.query('SELECT 1 FROM upgrade_regression WHERE call_id = $1', [callId]);
    expect(none.rowCount).toBe(0);
  });

  it('links a rollback at a later reboot to the verified upgrade: call page, audit report, webhook; the verdict stays', async () => {
    const device = await p.device('02:e2:00:00:0f:02', { faults: { rollbackUpgrades: 'unconfirmed' } });
    const url = await register('2.6.0');
    const callId = await upgrade(device, url);
    expect(await sealed(callId)).toMatchObject({ verdict: 'verified', rolledBackLater: null });
    expect(device.version).toBe('2.6.0');

    device.reboot(); // the bootloader finds the image still unconfirmed and boots the old slot
    const call = await waitFor(
      async () => {
        const r = await api(requester, 'GET', `/calls/${callId}`);
        return r.body['rolledBackLater'] ? r.body : undefined;
      },
      { what: 'the regression on the call', timeoutMs: 30_000 },
    );
    expect(device.version).toBe('2.4.2');
    expect(call).toMatchObject({
      verdict: 'verified',
      rolledBackLater: { reachedVersion: '2.6.0', reportedVersion: '2.4.2', reportedOtaLabel: 'ota_0' },
    });
    const { bootReportId } = call['rolledBackLater'] as { bootReportId: string };
    const boot = await p.sql.query('SELECT firmware_version FROM boot_report WHERE id = $1', [bootReportId]);
    expect(boot.rows).toEqual([{ firmware_version: '2.4.2' }]);

    const now = Date.now();
    const period = `from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now + 3_600_000).toISOString()}`;
    const report = await api(requester, 'GET', `/reports/audit?${period}`);
    expect(report.body['rolledBackLater']).toMatchObject({
      total: 1,
      items: [{ callId, deviceId: device.mac, reachedVersion: '2.6.0', reportedVersion: '2.4.2' }],
    });
    const delivery = await waitFor(
      async () =>
        (
          await p.sql.query<{ payload: Record<string, unknown> }>(
            `SELECT payload FROM webhook_delivery WHERE event = 'upgrade.regressed'`,
          )
        ).rows[0],
      { what: 'the regression webhook' },
    );
    expect(delivery.payload).toMatchObject({
      event: 'upgrade.regressed',
      callId,
      deviceId: device.mac,
      reachedVersion: '2.6.0',
      reportedVersion: '2.4.2',
    });
  });
});
