import { passPreflight } from '@fleet/testing';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { insertCatalog } from '../../test/fixtures';
import { waitingJobs } from '../../test/queues';

describe('the approval gate', () => {
  let h: Harness;
  let alice: Person;
  let bob: Person;
  let viewer: Person;
  let device: string;

  beforeAll(async () => {
    h = await startHarness();
    alice = await h.person('operator');
    bob = await h.person('operator');
    viewer = await h.person('viewer');
    device = (await insertDevices(h.pool, 1))[0]!;
    await insertCatalog(h.pool, device!, [{ name: 'self.reboot', userOnly: true }]);
  });
  afterAll(() => h.stop());

  /** Alice asks for a reboot: a user-only call, so it waits for someone else. */
  const aliceAsksForReboot = async () => {
    const r = await h.request('POST', `/api/v1/devices/${device}/calls`, {
      key: alice.key,
      body: { tool: 'self.reboot', arguments: {}, reason: 'frozen screen' },
    });
    expect(r.body.state).toBe('awaiting_approval');
    // DESIGN §4: no approval exists until pre-flight has passed the call.
    expect(r.body.approvalId).toBeUndefined();
    return { callId: r.body.id as string };
  };

  /** Alice's reboot, past pre-flight (as the orchestrator would pass it; none runs here): it waits for a person. */
  const aliceRebootWaits = async () => {
    const asked = await aliceAsksForReboot();
    return { ...asked, approvalId: await passPreflight(h.pool, asked.callId) };
  };

  it('lists what waits, with the call it binds and when it expires', async () => {
    const { approvalId, callId } = await aliceRebootWaits();
    const r = await h.request('GET', '/api/v1/approvals?state=pending', { key: viewer.key });
    const mine = r.body.items.find((a: { id: string }) => a.id === approvalId);
    expect(mine).toMatchObject({
      state: 'pending',
      effectiveState: 'pending',
      tool: 'self.reboot',
      deviceId: device,
      requestedBy: { id: alice.operatorId },
      call: { id: callId, reason: 'frozen screen' },
    });
    expect(new Date(mine.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses approval by the person who asked, even through a second key of theirs', async () => {
    const { approvalId } = await aliceRebootWaits();
    const secondKey = await h.addKey(alice.operatorId, 'operator');
    for (const key of [alice.key, secondKey]) {
      const r = await h.request('POST', `/api/v1/approvals/${approvalId}/approve`, { key });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({
        code: 'four_eyes',
        message: expect.stringMatching(/another person must decide/),
      });
    }
    const row = await h.pool.query('SELECT state, decided_by FROM approval WHERE id = $1', [approvalId]);
    expect(row.rows[0]).toEqual({ state: 'pending', decided_by: null });
  });

  it('lets another person approve, recording who and when, and wakes the call', async () => {
    const { approvalId, callId } = await aliceRebootWaits();
    const r = await h.request('POST', `/api/v1/approvals/${approvalId}/approve`, { key: bob.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: approvalId, state: 'approved', callId, campaignId: null });
    const row = await h.pool.query(
      'SELECT state, decided_by, decided_at IS NOT NULL AS dated FROM approval WHERE id = $1',
      [approvalId],
    );
    expect(row.rows[0]).toEqual({ state: 'approved', decided_by: bob.operatorId, dated: true });
    const wakes = (await waitingJobs(h, 'calls', device)).filter((j) => j.data['callId'] === callId);
    expect(wakes).toHaveLength(2); // on creation, and on approval
    const again = await h.request('POST', `/api/v1/approvals/${approvalId}/approve`, { key: viewer.key });
    expect(again.status).toBe(403); // a viewer never decides
    const approved = await h.request('GET', '/api/v1/approvals?state=approved', { key: viewer.key });
    expect(approved.body.items.find((a: { id: string }) => a.id === approvalId)).toMatchObject({
      decidedBy: { id: bob.operatorId },
      decidedAt: expect.any(String),
    });
    const twice = await h.request('POST', `/api/v1/approvals/${approvalId}/approve`, {
      key: (await h.person('operator')).key,
    });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('approval_decided');
  });

  it('rejects only with a reason, and wakes the call so the orchestrator seals it', async () => {
    const { approvalId, callId } = await aliceRebootWaits();
    const noReason = await h.request('POST', `/api/v1/approvals/${approvalId}/reject`, {
      key: bob.key,
      body: {},
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.issues[0].field).toBe('body.reason');
    const r = await h.request('POST', `/api/v1/approvals/${approvalId}/reject`, {
      key: bob.key,
      body: { reason: 'it is in use right now' },
    });
    expect(r.status).toBe(200);
    const row = await h.pool.query('SELECT state, reason FROM approval WHERE id = $1', [approvalId]);
    expect(row.rows[0]).toEqual({ state: 'rejected', reason: 'it is in use right now' });
    expect((await waitingJobs(h, 'calls', device)).filter((j) => j.data['callId'] === callId)).toHaveLength(
      2,
    );
  });

  it('lets exactly one of two people deciding at once win', async () => {
    const { approvalId } = await aliceRebootWaits();
    const carol = await h.person('operator');
    const answers = await Promise.all([
      h.request('POST', `/api/v1/approvals/${approvalId}/approve`, { key: bob.key }),
      h.request('POST', `/api/v1/approvals/${approvalId}/reject`, { key: carol.key, body: { reason: 'no' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });

  it('shows an approval past its expiry as expired, and refuses to decide it', async () => {
    const { approvalId } = await aliceRebootWaits();
    await h.pool.query(`UPDATE approval SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      approvalId,
    ]);
    const r = await h.request('POST', `/api/v1/approvals/${approvalId}/approve`, { key: bob.key });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('approval_expired');
    const pending = await h.request('GET', '/api/v1/approvals', { key: bob.key });
    expect(pending.body.items.map((a: { id: string }) => a.id)).not.toContain(approvalId);
    const expired = await h.request('GET', '/api/v1/approvals?state=expired', { key: bob.key });
    expect(expired.body.items.find((a: { id: string }) => a.id === approvalId)).toMatchObject({
      effectiveState: 'expired',
    });
  });

  it('no longer offers the approval of a call its requester cancelled', async () => {
    const { approvalId, callId } = await aliceRebootWaits();
    await h.request('POST', `/api/v1/calls/${callId}/cancel`, {
      key: alice.key,
      body: { reason: 'fixed itself' },
    });
    const pending = await h.request('GET', '/api/v1/approvals', { key: bob.key });
    expect(pending.body.items.map((a: { id: string }) => a.id)).not.toContain(approvalId);
    const r = await h.request('POST', `/api/v1/approvals/${approvalId}/approve`, { key: bob.key });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('call_not_waiting');
  });

  it('asks nobody before pre-flight has passed the call: no approval exists, none is listed', async () => {
    const { callId } = await aliceAsksForReboot();
    expect((await h.pool.query('SELECT 1 FROM approval WHERE call_id = $1', [callId])).rowCount).toBe(0);
    const pending = await h.request('GET', '/api/v1/approvals?state=pending', { key: bob.key });
    expect(pending.body.items.map((a: { callId: string }) => a.callId)).not.toContain(callId);
  });

  it('refuses to approve a call whose delivery deadline passed while it waited (409), and lists it no more', async () => {
    const { approvalId, callId } = await aliceRebootWaits();
    await h.pool.query(`UPDATE call SET deadline_at = now() - interval '1 second' WHERE id = $1`, [callId]);
    const r = await h.request('POST', `/api/v1/approvals/${approvalId}/approve`, { key: bob.key });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('call_past_deadline');
    const row = await h.pool.query('SELECT state FROM approval WHERE id = $1', [approvalId]);
    expect(row.rows[0].state).toBe('pending');
    const pending = await h.request('GET', '/api/v1/approvals?state=pending', { key: bob.key });
    expect(pending.body.items.map((a: { id: string }) => a.id)).not.toContain(approvalId);
  });

  it('shows what pre-flight found with the approval', async () => {
    const { approvalId } = await aliceRebootWaits();
    const r = await h.request('GET', `/api/v1/approvals/${approvalId}`, { key: viewer.key });
    expect(r.body.preflight).toEqual({ rules: [] });
  });
});
