import { loadAdminApiConfig, startAdminApi } from '@fleet/admin-api';
import type { SimDevice } from '@fleet/device-sim';
import { createLogger } from '@fleet/telemetry';
import { waitFor } from '@fleet/testing';
import { startE2ePlatform, type E2ePlatform } from './platform';

const A = '02:e4:00:00:00:01';
const B = '02:e4:00:00:00:02';
const OTHER = '02:e4:00:00:00:03';
const QUIET = '02:e4:00:00:00:04';
const SPEAKS = '02:e4:00:00:00:05';
const SILENT = '02:e4:00:00:00:06';
const BUSY = '02:e4:00:00:00:07';

interface Target {
  deviceId: string;
  state: string;
  callId: string | null;
  detail: string | null;
}
interface Campaign {
  id: string;
  state: string;
  approvalId: string | null;
  progress: Record<string, number>;
}
interface EvidenceRow {
  stage: string;
  payload: Record<string, unknown>;
}

/**
 * Announcements as a campaign's action, through the real broker (a process), orchestrator, admin API and voice
 * worker (a process), to simulated devices: each matched device's announcement is a call of its own through the
 * gate, and the campaign counts an alert done once published, speech once heard through.
 */
describe('announcement campaigns', () => {
  let p: E2ePlatform;
  let a: SimDevice;
  let b: SimDevice;
  let other: SimDevice;

  beforeAll(async () => {
    p = await startE2ePlatform({
      voiceWorkerEnv: { ANNOUNCE_HEARD_WITHIN_MS: '3000' },
      orchestratorEnv: { SWEEP_IDLE_MS: '1000', CAMPAIGN_TICK_MS: '200' },
    });
    [a, b, other] = await Promise.all([p.device(A), p.device(B), p.device(OTHER)]);
  }, 90_000);

  afterAll(async () => {
    await p?.close();
  });

  const post = async (key: string, path: string, body: unknown, api = p.apiUrl) => {
    const response = await fetch(`${api}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as never };
  };
  const get = async <T>(key: string, path: string): Promise<T> =>
    (await (
      await fetch(`${p.apiUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as T;

  const campaign = (deviceIds: string[], action: Record<string, unknown>) => ({
    name: `announce ${deviceIds.join(' ')}`,
    selector: { deviceIds },
    action: { kind: 'announcement', ...action },
  });

  const createAndStart = async (key: string, body: unknown, api = p.apiUrl) => {
    const created = await post(key, '/campaigns', body, api);
    expect(created.status).toBe(201);
    const { id } = created.body as Campaign;
    const started = await post(key, `/campaigns/${id}/start`, {}, api);
    expect(started.status).toBe(200);
    return started.body as Campaign;
  };

  const finished = (key: string, id: string, timeoutMs = 20_000) =>
    waitFor(
      async () => {
        const c = await get<Campaign>(key, `/campaigns/${id}`);
        return c.state === 'completed' || c.state === 'aborted' ? c : undefined;
      },
      { what: `campaign ${id} to finish`, timeoutMs },
    );

  const targets = async (key: string, id: string) =>
    (await get<{ items: Target[] }>(key, `/campaigns/${id}/targets`)).items;

  const evidence = async (callId: string) =>
    (
      await p.sql.query<EvidenceRow>(`SELECT stage, payload FROM evidence WHERE call_id = $1 ORDER BY seq`, [
        callId,
      ])
    ).rows;

  it('alerts every matched device and no other, each a sealed call of its own, done once published', async () => {
    const key = await p.operatorKey();
    const started = await createAndStart(
      key,
      campaign([A, B], { text: 'Canteen closes early', how: 'alert' }),
    );
    expect(started.state).toBe('running');
    const done = await finished(key, started.id);

    expect(done).toMatchObject({ state: 'completed', progress: { total: 2, acknowledged: 2, failed: 0 } });
    for (const device of [a, b])
      expect(device.observed.voiceMessages.all.find((m) => m.type === 'alert')).toMatchObject({
        message: 'Canteen closes early',
      });
    expect(other.observed.voiceMessages.all.some((m) => m.type === 'alert')).toBe(false);

    const rows = await targets(key, started.id);
    expect(rows.map((t) => t.state)).toEqual(['acknowledged', 'acknowledged']);
    expect(rows[0]!.detail).toMatch(/^shown \(counted as done\): the alert was published/);
    const calls = await p.sql.query<{ verdict: string; origin: string; campaign_id: string }>(
      `SELECT verdict, origin, campaign_id FROM call WHERE id = ANY($1::uuid[])`,
      [rows.map((t) => t.callId)],
    );
    expect(calls.rows).toEqual([
      { verdict: 'no_response', origin: 'campaign', campaign_id: started.id },
      { verdict: 'no_response', origin: 'campaign', campaign_id: started.id },
    ]);
    const sealed = await evidence(rows[0]!.callId!);
    expect(sealed.find((r) => r.stage === 'effect')?.payload).toMatchObject({ method: 'alert_published' });
    expect(sealed.find((r) => r.stage === 'decision')?.payload).toMatchObject({
      outcome: 'allowed',
      rules: expect.arrayContaining([
        expect.objectContaining({ rule: 'campaign', result: 'passed' }),
        expect.objectContaining({ rule: 'rate_per_device', result: 'passed' }),
      ]),
    });
  }, 40_000);

  it('speaks to a device in its next session (verified) and skips one that opens none by the deadline', async () => {
    const key = await p.operatorKey();
    const [speaks] = await Promise.all([p.device(SPEAKS), p.device(SILENT)]);
    const started = await createAndStart(
      key,
      campaign([SPEAKS, SILENT], { text: 'Meeting moved to three', how: 'spoken', deadlineS: 8 }),
    );
    await waitFor(
      async () =>
        (await targets(key, started.id)).every((t) => t.state === 'in_progress') &&
        (
          await p.sql.query(
            `SELECT 1 FROM call WHERE campaign_id = $1 AND device_id = $2 AND state = 'waiting_for_device'`,
            [started.id, SPEAKS],
          )
        ).rowCount === 1,
      { what: 'the spoken announcements waiting for sessions' },
    );
    await speaks.openVoiceSession({ mode: 'auto' });
    // A listening device streams its microphone at once (xiaozhi §2.1); the broker learns its UDP address so.
    speaks.sendAudio(new Int16Array(16_000 / 5));
    const done = await finished(key, started.id, 30_000);

    expect(done.progress).toMatchObject({ verified: 1, skipped: 1, failed: 0 });
    const rows = await targets(key, started.id);
    expect(rows.find((t) => t.deviceId === SPEAKS)).toMatchObject({ state: 'verified' });
    expect(rows.find((t) => t.deviceId === SILENT)).toMatchObject({ state: 'skipped' });
    const spokenEffect = (await evidence(rows.find((t) => t.deviceId === SPEAKS)!.callId!)).find(
      (r) => r.stage === 'effect',
    );
    expect(spokenEffect?.payload).toMatchObject({ method: 'playback_observed', observed: 'listen_start' });
  }, 60_000);

  it("keeps a device in its group's quiet hours waiting while the others are announced to", async () => {
    const admin = await p.operatorKey('admin');
    const quiet = await p.device(QUIET);
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', hourCycle: 'h23' }).format(
        new Date(),
      ),
    );
    const hhmm = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    const group = await post(admin, '/groups', {
      name: 'night ward',
      timeZone: 'Asia/Tokyo',
      quietHours: { from: hhmm(hour), to: hhmm(hour + 2) },
    });
    expect(group.status).toBe(201);
    const groupId = (group.body as { id: string }).id;
    await fetch(`${p.apiUrl}/api/v1/groups/${groupId}/members`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ add: [QUIET] }),
    });

    const key = await p.operatorKey();
    const started = await createAndStart(key, campaign([QUIET, A], { text: 'Visiting hours', how: 'alert' }));
    const held = await waitFor(
      async () => {
        const rows = await targets(key, started.id);
        const q = rows.find((t) => t.deviceId === QUIET);
        return rows.find((t) => t.deviceId === A)?.state === 'acknowledged' && q?.detail ? q : undefined;
      },
      { what: 'A announced to and the quiet device held' },
    );
    expect(held).toMatchObject({ state: 'pending', callId: null });
    expect(held.detail).toMatch(/quiet hours of group night ward until/);
    expect(quiet.observed.voiceMessages.all.some((m) => m.type === 'alert')).toBe(false);

    // The window ends (the group's quiet hours lifted rather than waited for): the device is announced to.
    await fetch(`${p.apiUrl}/api/v1/groups/${groupId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ quietHours: null }),
    });
    const done = await finished(key, started.id);
    expect(done.progress).toMatchObject({ acknowledged: 2 });
    expect(quiet.observed.voiceMessages.all.find((m) => m.type === 'alert')).toMatchObject({
      message: 'Visiting hours',
    });
  }, 40_000);

  it('refuses a viewer and a text over the size limit, and spends the device and sender rates with the route', async () => {
    const viewer = await p.operatorKey('viewer');
    expect((await post(viewer, '/campaigns', campaign([A], { text: 'hi', how: 'alert' }))).status).toBe(403);
    const key = await p.operatorKey();
    const tooLarge = await post(key, '/campaigns', campaign([A], { text: 'x'.repeat(600) }));
    expect(tooLarge.status).toBe(413);

    // One person's ten announcements to a device through the route spend both budgets of the minute.
    const busy = await p.device(BUSY);
    const spender = await p.operatorKey();
    for (let i = 0; i < 10; i++)
      expect((await post(spender, `/devices/${BUSY}/announcements`, { text: `note ${i}` })).status).toBe(202);
    const refused = await post(spender, '/campaigns', campaign([A], { text: 'one more', how: 'alert' }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // Another person's campaign runs, but the device whose budget is spent waits for it.
    const started = await createAndStart(key, campaign([BUSY], { text: 'eleventh', how: 'alert' }));
    const waiting = await waitFor(
      async () => (await targets(key, started.id)).find((t) => t.detail?.includes('announcements')),
      { what: 'the device held by its rate' },
    );
    expect(waiting).toMatchObject({ state: 'pending', callId: null });
    expect(waiting.detail).toMatch(/more than 10 announcements in 60 s to this device/);
    expect(busy.observed.voiceMessages.all.some((m) => m.type === 'alert' && m.message === 'eleventh')).toBe(
      false,
    );
    await post(key, `/campaigns/${started.id}/cancel`, {});
  }, 40_000);

  it('waits for a second person when the admin requires one above a device count, and runs once approved', async () => {
    const strict = await startAdminApi(
      loadAdminApiConfig({
        DATABASE_URL: p.db.url,
        REDIS_URL: p.redis.url,
        QUEUE_PREFIX: 'e2e',
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        WEBHOOK_WORKER: 'false',
        VALIDATE_ANSWERS: 'true',
        ANNOUNCE_APPROVAL_ABOVE_DEVICES: '1',
      }),
      createLogger('e2e-strict-api', 'silent'),
    );
    try {
      const strictUrl = `http://127.0.0.1:${strict.ports.http}`;
      const requester = await p.operatorKey();
      const approver = await p.operatorKey();
      // One device is not above the count: it runs at once.
      const single = await createAndStart(requester, campaign([B], { text: 'just you' }), strictUrl);
      expect(single.state).toBe('running');

      const mass = await createAndStart(requester, campaign([A, B], { text: 'Everyone out' }), strictUrl);
      expect(mass).toMatchObject({ state: 'awaiting_approval', approvalId: expect.any(String) });
      expect((await post(requester, `/campaigns/${mass.id}/approve`, {}, strictUrl)).status).toBe(403);
      expect(
        a.observed.voiceMessages.all.some((m) => m.type === 'alert' && m.message === 'Everyone out'),
      ).toBe(false);
      expect((await post(approver, `/campaigns/${mass.id}/approve`, {}, strictUrl)).status).toBe(200);
      const done = await finished(requester, mass.id);
      expect(done.progress).toMatchObject({ acknowledged: 2 });
      expect(
        a.observed.voiceMessages.all.some((m) => m.type === 'alert' && m.message === 'Everyone out'),
      ).toBe(true);
    } finally {
      await strict.stop();
    }
  }, 40_000);
});
