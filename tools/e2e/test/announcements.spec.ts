import { loadAdminApiConfig, startAdminApi } from '@fleet/admin-api';
import type { SimDevice } from '@fleet/device-sim';
import { createLogger } from '@fleet/telemetry';
import { registerListenAiDevice, waitFor } from '@fleet/testing';
import { startE2ePlatform, type E2ePlatform } from './platform';

const A = '02:e3:00:00:00:01';
const B = '02:e3:00:00:00:02';
const QUIET = '02:e3:00:00:00:03';
const RATE = '02:e3:00:00:00:04';
const SCHEDULED = '02:e3:00:00:00:05';
const LISTENAI = '02:e3:00:00:00:06';

interface EvidenceRow {
  stage: string;
  valid: boolean;
  payload: Record<string, unknown>;
}
interface SealedCall {
  verdict: string;
  verdictReason: string;
  evidence: { complete: boolean; rows: EvidenceRow[] };
}

/**
 * Announcements through the real broker (a process), orchestrator, admin API and voice worker (a process, with
 * espeak-ng), to simulated devices that play them as the firmware does: the alert shown at once, speech only in
 * a session the device opened.
 */
describe('announcements', () => {
  let p: E2ePlatform;
  let a: SimDevice;
  let b: SimDevice;

  beforeAll(async () => {
    p = await startE2ePlatform({
      voiceWorkerEnv: { ANNOUNCE_HEARD_WITHIN_MS: '3000' },
      // The sweep looks again within a second of a hold being lifted.
      orchestratorEnv: { SWEEP_IDLE_MS: '1000' },
      apiEnv: { ANNOUNCE_SCHEDULE_TICK_MS: '200' },
    });
    [a, b] = await Promise.all([p.device(A), p.device(B)]);
  }, 90_000);

  afterAll(async () => {
    await p?.close();
  });

  const announce = async (key: string, mac: string, body: Record<string, unknown>, api = p.apiUrl) => {
    const response = await fetch(`${api}/api/v1/devices/${mac}/announcements`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as never };
  };

  const sealed = (key: string, id: string, timeoutMs = 15_000) =>
    waitFor(
      async () => {
        const response = await fetch(`${p.apiUrl}/api/v1/calls/${id}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        const call = (await response.json()) as SealedCall & { state: string };
        return call.state === 'finished' ? call : undefined;
      },
      { what: `the verdict of announcement ${id}`, timeoutMs },
    );

  /** A stage's row, once the call shows all five, each fitting its stage's contract. */
  const row = (call: SealedCall, stage: string) => {
    expect(call.evidence.complete).toBe(true);
    const found = call.evidence.rows.find((r) => r.stage === stage)!;
    expect(found.valid).toBe(true);
    return found.payload;
  };

  const stateOf = async (id: string) =>
    (await p.sql.query<{ state: string }>('SELECT state FROM call WHERE id = $1', [id])).rows[0]!.state;

  it('shows an alert on the addressed device only, and seals it with what it proves', async () => {
    const key = await p.operatorKey();
    const created = await announce(key, A, { text: 'Fire drill at noon', how: 'alert', title: 'Notice' });
    expect(created.status).toBe(202);
    const { id } = created.body as { id: string };
    const call = await sealed(key, id);

    const alert = a.observed.voiceMessages.all.find((m) => m.type === 'alert');
    expect(alert).toMatchObject({ status: 'Notice', message: 'Fire drill at noon' });
    expect(b.observed.voiceMessages.all.some((m) => m.type === 'alert')).toBe(false);
    // Published on the connection the device holds, and nothing more is claimed.
    expect(call.verdict).toBe('no_response');
    expect(row(call, 'response')).toMatchObject({ alert: 'published', connectionId: expect.any(String) });
    expect(row(call, 'effect')).toMatchObject({ method: 'alert_published' });
    expect(row(call, 'parameters')).toMatchObject({
      arguments: { text: 'Fire drill at noon', how: 'alert' },
      sent: { type: 'alert', message: 'Fire drill at noon' },
    });
    expect(row(call, 'decision')).toMatchObject({
      outcome: 'allowed',
      rules: expect.arrayContaining([
        expect.objectContaining({ rule: 'rate_per_device', result: 'passed' }),
        expect.objectContaining({ rule: 'size', result: 'passed' }),
      ]),
    });
  });

  it('speaks an announcement queued for an idle device in its next session, verified by its listen start', async () => {
    const key = await p.operatorKey();
    const created = await announce(key, B, { text: 'The lift is out of order', how: 'spoken' });
    const { id } = created.body as { id: string };
    await waitFor(async () => (await stateOf(id)) === 'waiting_for_device', {
      what: 'the announcement waiting for a session',
    });
    expect(b.observed.voiceMessages.all.some((m) => m.type === 'tts')).toBe(false);

    const sessionId = await b.openVoiceSession({ mode: 'auto' });
    // A listening device streams its microphone at once (xiaozhi §2.1); the broker learns its UDP address so.
    b.sendAudio(new Int16Array(16_000 / 5));
    const call = await sealed(key, id, 30_000);

    expect(call.verdict).toBe('verified');
    expect(row(call, 'response')).toMatchObject({
      session: sessionId,
      outcome: 'reply',
      text: 'listen_start',
    });
    expect(row(call, 'effect')).toMatchObject({ method: 'playback_observed', observed: 'listen_start' });
    const tts = b.observed.voiceMessages.all.filter((m) => m.type === 'tts').map((m) => m.state);
    expect(tts).toEqual(expect.arrayContaining(['start', 'sentence_start', 'stop']));
    expect(b.decodePlayedAudio().length).toBeGreaterThan(0);
  }, 40_000);

  it('seals a spoken announcement undelivered at its deadline when the device opens no session', async () => {
    const key = await p.operatorKey();
    const created = await announce(key, A, { text: 'Nobody hears this', how: 'spoken', deadlineS: 5 });
    const call = await sealed(key, (created.body as { id: string }).id, 15_000);
    expect(call.verdict).toBe('undelivered');
    expect(call.verdictReason).toMatch(/opened no voice session/);
  });

  it('holds an announcement back to the end of its group quiet hours, then delivers it', async () => {
    const admin = await p.operatorKey('admin');
    const quiet = await p.device(QUIET);
    // A window around now in Shanghai time, whatever the clock says.
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Shanghai',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date());
    const hour = Number(local.slice(0, 2));
    const hhmm = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    const group = await fetch(`${p.apiUrl}/api/v1/groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'night shift',
        timeZone: 'Asia/Shanghai',
        quietHours: { from: hhmm(hour), to: hhmm(hour + 2) },
      }),
    });
    expect(group.status).toBe(201);
    const { id: groupId } = (await group.json()) as { id: string };
    await fetch(`${p.apiUrl}/api/v1/groups/${groupId}/members`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ add: [QUIET] }),
    });

    const key = await p.operatorKey();
    const created = await announce(key, QUIET, { text: 'Quiet please', how: 'alert' });
    const body = created.body as { id: string; heldUntil: string; heldBy: string };
    expect(body.heldBy).toBe('night shift');
    const windowEnd = new Date(body.heldUntil);
    expect(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Asia/Shanghai',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(windowEnd),
    ).toBe(hhmm(hour + 2));
    // Held: still queued after a later alert to another device was sealed, and nothing reached this one.
    const later = await announce(key, A, { text: 'meanwhile', how: 'alert' });
    await sealed(key, (later.body as { id: string }).id);
    expect(await stateOf(body.id)).toBe('queued');
    expect(quiet.observed.voiceMessages.all.some((m) => m.type === 'alert')).toBe(false);

    // The window's end comes (moved to now rather than waited for): the sweep runs it.
    await p.sql.query('UPDATE call SET hold_until = now() WHERE id = $1', [body.id]);
    const call = await sealed(key, body.id);
    expect(quiet.observed.voiceMessages.all.find((m) => m.type === 'alert')).toMatchObject({
      message: 'Quiet please',
    });
    expect(row(call, 'decision')).toMatchObject({
      rules: expect.arrayContaining([
        expect.objectContaining({ rule: 'quiet_hours', detail: expect.stringMatching(/night shift/) }),
      ]),
    });
  }, 40_000);

  it('waits for a second person where an admin requires one, and runs once another person approves', async () => {
    // Another API replica on the same platform, where the admin's rule sends every announcement to a second person.
    const strict = await startAdminApi(
      loadAdminApiConfig({
        DATABASE_URL: p.db.url,
        REDIS_URL: p.redis.url,
        QUEUE_PREFIX: 'e2e',
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        WEBHOOK_WORKER: 'false',
        VALIDATE_ANSWERS: 'true',
        ANNOUNCE_APPROVAL_ABOVE_DEVICES: '0',
      }),
      createLogger('e2e-strict-api', 'silent'),
    );
    try {
      const strictUrl = `http://127.0.0.1:${strict.ports.http}`;
      const requester = await p.operatorKey();
      const approver = await p.operatorKey();
      await p.sql.query(
        `INSERT INTO webhook (id, url, secret, events, created_by)
         SELECT gen_random_uuid(), 'http://127.0.0.1:9/hook', 's', '{approval.waiting}', id FROM operator LIMIT 1`,
      );
      const created = await announce(requester, B, { text: 'Evacuate', how: 'alert' }, strictUrl);
      const body = created.body as { id: string; state: string; approvalId: string };
      expect(body).toMatchObject({ state: 'awaiting_approval', approvalId: expect.any(String) });
      // People hear of it as of a tool call waiting for them: the approval.waiting webhook with what the gate found.
      const notice = await p.sql.query<{ payload: Record<string, unknown> }>(
        `SELECT payload FROM webhook_delivery WHERE event = 'approval.waiting' AND payload->>'callId' = $1`,
        [body.id],
      );
      expect(notice.rows[0]?.payload).toMatchObject({
        approvalId: body.approvalId,
        deviceId: B,
        tool: 'platform.announce',
        arguments: { text: 'Evacuate', how: 'alert' },
        preflight: {
          gate: expect.arrayContaining([expect.objectContaining({ rule: 'second_person' })]),
        },
      });

      const decide = (key: string) =>
        fetch(`${strictUrl}/api/v1/approvals/${body.approvalId}/approve`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: '{}',
        });
      expect((await decide(requester)).status).toBe(403); // nobody approves their own request
      expect(await stateOf(body.id)).toBe('awaiting_approval');
      expect(b.observed.voiceMessages.all.some((m) => m.type === 'alert' && m.message === 'Evacuate')).toBe(
        false,
      );

      expect((await decide(approver)).status).toBe(200);
      const call = await sealed(requester, body.id);
      expect(b.observed.voiceMessages.all.some((m) => m.type === 'alert' && m.message === 'Evacuate')).toBe(
        true,
      );
      expect(row(call, 'decision')).toMatchObject({
        approval: { id: body.approvalId, state: 'approved' },
        rules: expect.arrayContaining([
          expect.objectContaining({ rule: 'second_person', result: 'awaiting_approval' }),
        ]),
      });
    } finally {
      await strict.stop();
    }
  }, 30_000);

  it('runs a recurring announcement as a call each time, listed, and stops it when cancelled', async () => {
    const key = await p.operatorKey();
    const device = await p.device(SCHEDULED);
    const post = (path: string, body: unknown) =>
      fetch(`${p.apiUrl}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await post(`/devices/${SCHEDULED}/announcement-schedules`, {
      text: 'Stretch break',
      how: 'alert',
      cron: '*/2 * * * * *', // every two seconds (a sixth field, seconds first)
    });
    expect(created.status).toBe(201);
    const schedule = (await created.json()) as { id: string; state: string; timeZone: string };
    expect(schedule).toMatchObject({ state: 'active', timeZone: 'UTC' });

    const callsOf = async () =>
      (
        await p.sql.query<{ id: string; verdict: string | null }>(
          `SELECT id, verdict FROM call WHERE device_id = $1 AND tool = 'platform.announce' ORDER BY created_at`,
          [SCHEDULED],
        )
      ).rows;
    await waitFor(async () => (await callsOf()).filter((c) => c.verdict).length >= 3, {
      what: 'three runs sealed',
      timeoutMs: 15_000,
    });
    expect((await post(`/announcement-schedules/${schedule.id}/cancel`, {})).status).toBe(200);
    const made = (await callsOf()).length;
    expect(made).toBeGreaterThanOrEqual(3);
    expect(device.observed.voiceMessages.all.filter((m) => m.type === 'alert').length).toBeGreaterThanOrEqual(
      3,
    );

    // A one-time schedule made after the cancellation runs in a later round; the cancelled one made nothing more.
    const once = await post(`/devices/${SCHEDULED}/announcement-schedules`, {
      text: 'Last call',
      how: 'alert',
      at: new Date().toISOString(),
    });
    const onceId = ((await once.json()) as { id: string }).id;
    await waitFor(
      async () =>
        (
          await p.sql.query(
            `SELECT 1 FROM announcement_schedule WHERE id = $1 AND last_call_id IS NOT NULL`,
            [onceId],
          )
        ).rowCount === 1,
      { what: 'the one-time run' },
    );
    expect((await callsOf()).length).toBe(made + 1);
    const listed = await fetch(`${p.apiUrl}/api/v1/announcement-schedules?deviceId=${SCHEDULED}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const { items } = (await listed.json()) as { items: { id: string; state: string; runs: number }[] };
    expect(items.find((i) => i.id === schedule.id)).toMatchObject({ state: 'cancelled', runs: made });
    expect(items.find((i) => i.id === onceId)).toMatchObject({ state: 'finished', runs: 1 });
    expect((await post(`/announcement-schedules/${schedule.id}/resume`, {})).status).toBe(409);
  }, 40_000);

  it('rejects an announcement to a ListenAI device, whose link carries MCP only, saying so', async () => {
    const { token } = await registerListenAiDevice(p.sql, LISTENAI);
    await p.listenAiDevice(LISTENAI, token);
    const key = await p.operatorKey();
    const created = await announce(key, LISTENAI, { text: 'hello', how: 'both' });
    const call = await sealed(key, (created.body as { id: string }).id);
    expect(call.verdict).toBe('rejected');
    expect(call.verdictReason).toMatch(/MCP only/);
    expect(row(call, 'decision')).toMatchObject({
      outcome: 'rejected',
      rules: [expect.objectContaining({ rule: 'dialect', result: 'refused' })],
    });
  });

  it('refuses a viewer, a text over the size limit, and the 11th announcement to a device in a minute', async () => {
    const viewer = await p.operatorKey('viewer');
    expect((await announce(viewer, A, { text: 'hi' })).status).toBe(403);

    const key = await p.operatorKey();
    const tooLarge = await announce(key, A, { text: 'x'.repeat(600) });
    expect(tooLarge.status).toBe(413);

    await p.device(RATE);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await announce(key, RATE, { text: `note ${i}` })).status);
    expect(statuses).toEqual(Array(10).fill(202));
    const eleventh = await announce(key, RATE, { text: 'one too many' });
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((eleventh.body as { code: string }).code).toBe('too_many_announcements');
  }, 30_000);
});
