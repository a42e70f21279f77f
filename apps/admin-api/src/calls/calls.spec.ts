import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { insertCall, insertCatalog, insertEvidenceChain, VALID_PAYLOADS } from '../../test/fixtures';
import { waitingJobs } from '../../test/queues';

describe('operator calls', () => {
  let h: Harness;
  let operator: Person;
  let device: string;
  let gatedDevice: string;

  beforeAll(async () => {
    h = await startHarness();
    operator = await h.person('operator');
    [device, gatedDevice] = (await insertDevices(h.pool, 2)) as [string, string];
    await insertCatalog(h.pool, gatedDevice!, [
      { name: 'self.get_device_status' },
      { name: 'self.reboot', userOnly: true },
    ]);
  });
  afterAll(() => h.stop());

  const call = (deviceId: string, body: unknown, headers: Record<string, string> = {}) =>
    h.request('POST', `/api/v1/devices/${deviceId}/calls`, { key: operator.key, body, headers });

  it('queues a call with 202 and wakes the partition that owns the device', async () => {
    const r = await call(device!, { tool: 'self.get_device_status', reason: 'check' });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ id: expect.any(String), state: 'queued' });
    const row = await h.pool.query('SELECT origin, operator_id, api_key_id, reason FROM call WHERE id = $1', [
      r.body.id,
    ]);
    expect(row.rows[0]).toMatchObject({
      origin: 'operator',
      operator_id: operator.operatorId,
      reason: 'check',
    });
    expect(row.rows[0].api_key_id).toEqual(expect.any(String));
    const jobs = await waitingJobs(h, 'calls', device);
    expect(jobs.map((j) => j.data)).toContainEqual({ callId: r.body.id, deviceId: device });
  });

  it('answers awaiting_approval for a user-only tool, and opens no approval before pre-flight has passed it', async () => {
    const r = await call(gatedDevice!, { tool: 'self.reboot', reason: 'stuck' });
    expect(r.status).toBe(202);
    // No orchestrator runs here (CALL_PREFLIGHT_WAIT_MS 0): the standing as it is, with nobody asked yet.
    expect(r.body).toEqual({ id: expect.any(String), state: 'awaiting_approval' });
    const approval = await h.pool.query('SELECT 1 FROM approval WHERE call_id = $1', [r.body.id]);
    expect(approval.rowCount).toBe(0);
  });

  it('returns the first answer to a retry with the same Idempotency-Key and creates nothing new', async () => {
    const before = await h.pool.query('SELECT count(*)::int AS n FROM call');
    const body = { tool: 'self.reboot', reason: 'retry after a timeout' };
    const first = await call(gatedDevice!, body, { 'idempotency-key': 'reboot-42' });
    const again = await call(gatedDevice!, body, { 'idempotency-key': 'reboot-42' });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    const after = await h.pool.query('SELECT count(*)::int AS n FROM call');
    expect(after.rows[0].n).toBe(before.rows[0].n + 1);
    const approvals = await h.pool.query('SELECT count(*)::int AS n FROM approval WHERE call_id = $1', [
      first.body.id,
    ]);
    expect(approvals.rows[0].n).toBe(0); // pre-flight (no orchestrator here) opens it, once

    const different = await call(
      gatedDevice!,
      { tool: 'self.get_device_status' },
      { 'idempotency-key': 'reboot-42' },
    );
    expect(different.status).toBe(422);
    expect(different.body.code).toBe('idempotency_key_reused');
  });

  it("keeps one person's Idempotency-Key apart from another person's", async () => {
    const other = await h.person('operator');
    const mine = await call(
      device!,
      { tool: 'self.get_device_status' },
      { 'idempotency-key': 'shared-name' },
    );
    const theirs = await h.request('POST', `/api/v1/devices/${device}/calls`, {
      key: other.key,
      body: { tool: 'self.get_device_status' },
      headers: { 'idempotency-key': 'shared-name' },
    });
    expect(theirs.status).toBe(202);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('takes the longest Idempotency-Key a client may send, scoped to the person in the call row', async () => {
    const key = 'k'.repeat(255);
    const first = await call(device!, { tool: 'self.get_device_status' }, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    const again = await call(device!, { tool: 'self.get_device_status' }, { 'idempotency-key': key });
    expect(again.body).toEqual(first.body);
    const row = await h.pool.query('SELECT idempotency_key FROM call WHERE id = $1', [first.body.id]);
    expect(row.rows[0].idempotency_key).toBe(`operator:${operator.operatorId}:${key}`);
    const tooLong = await call(device!, { tool: 'self.get_device_status' }, { 'idempotency-key': `${key}k` });
    expect(tooLong.status).toBe(400);
  });

  it('refuses bad input with a 400 that names the field, and writes nothing', async () => {
    const before = await h.pool.query('SELECT count(*)::int AS n FROM call');
    const wrongType = await call(device!, { tool: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.issues).toEqual([{ field: 'body.tool', message: expect.stringMatching(/string/) }]);
    expect(wrongType.body.message).toMatch(/^body\.tool: /);

    const unknownField = await call(device!, { tool: 'self.get_device_status', volume: 3 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.issues).toEqual([{ field: 'body.volume', message: 'unknown field' }]);

    const badArguments = await call(device!, { tool: 'x', arguments: [1, 2] });
    expect(badArguments.body.issues[0].field).toBe('body.arguments');

    const badDevice = await call('A0-85-E3', { tool: 'x' });
    expect(badDevice.status).toBe(400);
    expect(badDevice.body.issues[0].field).toBe('params.id');

    const notJson = await h.request('POST', `/api/v1/devices/${device}/calls`, {
      key: operator.key,
      raw: Buffer.from('{"tool": '),
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);

    const after = await h.pool.query('SELECT count(*)::int AS n FROM call');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('answers 404 for a device nobody knows', async () => {
    const r = await call('ff:ff:ff:ff:ff:ff', { tool: 'self.get_device_status' });
    expect(r.status).toBe(404);
  });

  it('shows a call with its five evidence rows, each parsed with its stage schema, and its verdict', async () => {
    const callId = await insertCall(h.pool, {
      deviceId: device!,
      verdict: 'verified',
      operatorId: operator.operatorId,
    });
    await insertEvidenceChain(h.pool, [
      ...(['discovery', 'decision', 'parameters', 'response'] as const).map((stage) => ({
        callId,
        deviceId: device!,
        stage,
      })),
      { callId, deviceId: device!, stage: 'effect', payload: { method: 'telepathy' } },
    ]);
    const r = await h.request('GET', `/api/v1/calls/${callId}`, { key: operator.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: callId,
      verdict: 'verified',
      verdictMeaning: 'the effect was observed',
    });
    expect(r.body.evidence.complete).toBe(true);
    expect(r.body.evidence.rows.map((row: { stage: string }) => row.stage)).toEqual([
      'discovery',
      'decision',
      'parameters',
      'response',
      'effect',
    ]);
    expect(r.body.evidence.rows[3]).toMatchObject({ valid: true, payload: VALID_PAYLOADS.response });
    expect(r.body.evidence.rows[4]).toMatchObject({
      valid: false,
      problems: [expect.stringMatching(/^method: /), expect.stringMatching(/^conclusion: /)],
    });
  });

  it('says which stages a call is missing', async () => {
    const callId = await insertCall(h.pool, { deviceId: device!, state: 'awaiting_approval' });
    await insertEvidenceChain(h.pool, [
      { callId, deviceId: device!, stage: 'discovery' },
      { callId, deviceId: device!, stage: 'decision', payload: { skipped: true, reason: 'not reached yet' } },
    ]);
    const r = await h.request('GET', `/api/v1/calls/${callId}`, { key: operator.key });
    expect(r.body.evidence).toMatchObject({ complete: false, missing: ['parameters', 'response', 'effect'] });
    expect(r.body.evidence.rows[1]).toMatchObject({ skipped: true, valid: true });
  });

  it('lists calls newest first, filtered, a page at a time', async () => {
    const filtered = await h.request(
      'GET',
      `/api/v1/calls?deviceId=${gatedDevice}&tool=self.reboot&limit=1`,
      {
        key: operator.key,
      },
    );
    expect(filtered.status).toBe(200);
    expect(filtered.body.items).toHaveLength(1);
    expect(filtered.body.nextCursor).toEqual(expect.any(String));
    const next = await h.request(
      'GET',
      `/api/v1/calls?deviceId=${gatedDevice}&tool=self.reboot&limit=1&cursor=${filtered.body.nextCursor}`,
      {
        key: operator.key,
      },
    );
    expect(next.body.items).toHaveLength(1);
    expect(next.body.items[0].id).not.toBe(filtered.body.items[0].id);
    expect(next.body.items[0].createdAt <= filtered.body.items[0].createdAt).toBe(true);
    const queued = await h.request('GET', '/api/v1/calls?origin=operator&state=queued', {
      key: operator.key,
    });
    expect(queued.body.items.length).toBeGreaterThan(0);
    expect(
      queued.body.items.every(
        (c: { state: string; origin: string }) => c.state === 'queued' && c.origin === 'operator',
      ),
    ).toBe(true);
    const verified = await h.request('GET', '/api/v1/calls?verdict=verified', { key: operator.key });
    expect(verified.body.items.every((c: { verdict: string }) => c.verdict === 'verified')).toBe(true);
    const badVerdict = await h.request('GET', '/api/v1/calls?verdict=great', { key: operator.key });
    expect(badVerdict.body.issues[0].field).toBe('query.verdict');
  });

  it('cancels a call before it is sent, wakes the orchestrator to seal it, and refuses a second time', async () => {
    const created = await call(device!, { tool: 'self.get_device_status' });
    const cancel = await h.request('POST', `/api/v1/calls/${created.body.id}/cancel`, {
      key: operator.key,
      body: { reason: 'wrong device' },
    });
    expect(cancel.status).toBe(200);
    const row = await h.pool.query(
      'SELECT state, cancelled_by, cancel_reason, verdict FROM call WHERE id = $1',
      [created.body.id],
    );
    expect(row.rows[0]).toEqual({
      state: 'finished',
      cancelled_by: operator.operatorId,
      cancel_reason: 'wrong device',
      verdict: null,
    });
    const wakes = (await waitingJobs(h, 'calls', device)).filter((j) => j.data['callId'] === created.body.id);
    expect(wakes.length).toBe(2); // created, then cancelled
    const again = await h.request('POST', `/api/v1/calls/${created.body.id}/cancel`, {
      key: operator.key,
      body: { reason: 'again' },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already sent or finished/);
  });

  it('refuses to cancel a call that has been sent', async () => {
    const sent = await insertCall(h.pool, { deviceId: device!, state: 'sent' });
    const r = await h.request('POST', `/api/v1/calls/${sent}/cancel`, {
      key: operator.key,
      body: { reason: 'too late' },
    });
    expect(r.status).toBe(409);
    const row = await h.pool.query('SELECT state, cancelled_by FROM call WHERE id = $1', [sent]);
    expect(row.rows[0]).toEqual({ state: 'sent', cancelled_by: null });
  });

  it('lets a held reboot go during a conversation with the reason recorded, wakes it, and keeps the first override', async () => {
    const created = await call(gatedDevice!, { tool: 'self.reboot', reason: 'stuck' });
    const viewer = await h.person('viewer');
    const refused = await h.request('POST', `/api/v1/calls/${created.body.id}/busy-override`, {
      key: viewer.key,
      body: { reason: 'urgent' },
    });
    expect(refused.status).toBe(403);
    const r = await h.request('POST', `/api/v1/calls/${created.body.id}/busy-override`, {
      key: operator.key,
      body: { reason: 'security fix, cannot wait' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ overriddenBy: operator.operatorId, reason: 'security fix, cannot wait' });
    const again = await h.request('POST', `/api/v1/calls/${created.body.id}/busy-override`, {
      key: operator.key,
      body: { reason: 'another reason' },
    });
    expect(again.body.reason).toBe('security fix, cannot wait');
    const wakes = (await waitingJobs(h, 'calls', gatedDevice)).filter(
      (j) => j.data['callId'] === created.body.id,
    );
    expect(wakes.length).toBe(3); // created, then each override
    const noReason = await h.request('POST', `/api/v1/calls/${created.body.id}/busy-override`, {
      key: operator.key,
      body: {},
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.issues[0].field).toBe('body.reason');
  });

  it('refuses to override the busy lock of a call already sent', async () => {
    const sent = await insertCall(h.pool, { deviceId: device!, state: 'sent' });
    const r = await h.request('POST', `/api/v1/calls/${sent}/busy-override`, {
      key: operator.key,
      body: { reason: 'too late' },
    });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('call_already_sent');
    const rows = await h.pool.query('SELECT 1 FROM call_busy_hold WHERE call_id = $1', [sent]);
    expect(rows.rowCount).toBe(0);
  });

  it('refuses a call to a revoked device', async () => {
    const [revoked] = await insertDevices(h.pool, 1, { start: 500 });
    await h.pool.query(`UPDATE device SET status = 'revoked' WHERE id = $1`, [revoked]);
    const r = await call(revoked!, { tool: 'self.get_device_status' });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('device_unavailable');
  });
});
