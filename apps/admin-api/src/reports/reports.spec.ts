import { generateKeyPairSync } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { sealSigner } from '@fleet/audit-export';
import { insertCall, insertEvidenceChain, SEALED_CALL_LINKS } from '../../test/fixtures';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { LEDGER_COLUMNS } from './audit-report.service';

const STAGES = ['discovery', 'decision', 'parameters', 'response', 'effect'] as const;

describe('audit reports', () => {
  let h: Harness;
  let viewer: Person;
  let operator: Person;
  let devices: string[];
  const day = new Date('2026-03-02T00:00:00Z');
  const at = (minutes: number) => new Date(day.getTime() + minutes * 60_000);
  const tricky = 'volume "too loud", per the café; see\nticket 7';

  beforeAll(async () => {
    h = await startHarness();
    viewer = await h.person('viewer');
    operator = await h.person('operator', { email: 'ops@example.com' });
    devices = await insertDevices(h.pool, 3);
    const verified = await insertCall(h.pool, {
      deviceId: devices[0]!,
      verdict: 'verified',
      operatorId: operator.operatorId,
      reason: tricky,
      createdAt: at(1),
    });
    await insertEvidenceChain(
      h.pool,
      SEALED_CALL_LINKS.map((stage) => ({ callId: verified, deviceId: devices[0]!, stage })),
    );
    const acknowledged = await insertCall(h.pool, {
      deviceId: devices[1]!,
      tool: 'self.screen.set_theme',
      verdict: 'acknowledged',
      createdAt: at(2),
      origin: 'llm',
    });
    await insertEvidenceChain(
      h.pool,
      STAGES.slice(0, 3).map((stage) => ({ callId: acknowledged, deviceId: devices[1]!, stage })),
    );
    await insertCall(h.pool, { deviceId: devices[2]!, state: 'queued', createdAt: at(3) });
    await insertCall(h.pool, {
      deviceId: devices[2]!,
      verdict: 'verified',
      createdAt: new Date('2026-03-05T00:00:00Z'),
    }); // outside
  });
  afterAll(() => h.stop());

  const period = `from=${day.toISOString()}&to=${new Date(day.getTime() + 86_400_000).toISOString()}`;

  it('counts calls by verdict, origin, tool and operator, and names what was not verified or is incomplete', async () => {
    const r = await h.request('GET', `/api/v1/reports/audit?${period}`, { key: viewer.key });
    expect(r.status).toBe(200);
    expect(r.body.calls).toMatchObject({
      total: 3,
      byVerdict: { verified: 1, acknowledged: 1, unsealed: 1 },
      byOrigin: { operator: 2, llm: 1 },
      byOperator: [{ operatorId: operator.operatorId, email: 'ops@example.com', calls: 1 }],
    });
    expect(r.body.calls.byTool).toContainEqual({ tool: 'self.get_device_status', calls: 2, verified: 1 });
    expect(r.body.effectNotVerified).toMatchObject({
      total: 1,
      items: [{ tool: 'self.screen.set_theme', verdict: 'acknowledged' }],
    });
    expect(r.body.evidenceCompleteness).toMatchObject({
      sealedCalls: 2,
      complete: 1,
      incomplete: 1,
      items: [{ deviceId: devices[1], missing: ['response', 'effect'] }],
    });
  });

  it('streams the call ledger as CSV that a CSV parser (and so a spreadsheet) reads back', async () => {
    const r = await h.request('GET', `/api/v1/reports/audit?${period}&format=csv`, { key: viewer.key });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toMatch(
      /attachment; filename="audit-calls-2026-03-02-2026-03-03\.csv"/,
    );
    expect(r.text.startsWith('\ufeff')).toBe(true);
    const rows = parse<Record<string, string>>(r.text, {
      bom: true,
      columns: true,
      record_delimiter: '\r\n',
    });
    expect(Object.keys(rows[0]!)).toEqual([...LEDGER_COLUMNS]);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      device_id: devices[0],
      operator: 'ops@example.com',
      verdict: 'verified',
      effect_verified: 'yes',
      reason: tricky,
      evidence_rows: '5',
      evidence_missing: '',
    });
    expect(rows[1]).toMatchObject({
      verdict: 'acknowledged',
      effect_verified: 'no',
      evidence_missing: 'response;effect',
    });
    expect(rows[2]).toMatchObject({ state: 'queued', verdict: '', effect_verified: '' });
  });

  it('pages through a long period without losing or repeating a call', async () => {
    const [busy] = await insertDevices(h.pool, 1, { start: 50 });
    await h.pool.query(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, state, verdict, deadline_at, created_at)
       SELECT gen_random_uuid(), $1, 0, 'self.get_device_status', '{}', 'system', 'finished', 'verified', now(),
              '2026-04-01T00:00:00Z'::timestamptz + n * interval '1 second'
         FROM generate_series(1, 2500) n`,
      [busy],
    );
    const r = await h.request(
      'GET',
      '/api/v1/reports/audit?from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z&format=csv',
      { key: viewer.key },
    );
    const rows = parse<Record<string, string>>(r.text, { bom: true, columns: true });
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((row) => row['call_id'])).size).toBe(2500);
  });

  it('offers approvals, campaigns and a summary as CSV sections', async () => {
    const summary = await h.request('GET', `/api/v1/reports/audit?${period}&format=csv&section=summary`, {
      key: viewer.key,
    });
    const rows = parse<Record<string, string>>(summary.text, { bom: true, columns: true });
    expect(rows).toContainEqual({ measure: 'calls by verdict', key: 'acknowledged', value: '1' });
    const approvals = await h.request('GET', `/api/v1/reports/audit?${period}&format=csv&section=approvals`, {
      key: viewer.key,
    });
    expect(approvals.text.split('\r\n')[0]).toBe(
      '\ufeffid,callId,campaignId,deviceId,tool,state,requestedBy,requestedAt,decidedBy,decidedAt,reason,expiresAt',
    );
  });

  it('refuses a period that ends before it starts, naming the field', async () => {
    const r = await h.request(
      'GET',
      '/api/v1/reports/audit?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z',
      { key: viewer.key },
    );
    expect(r.status).toBe(400);
    expect(r.body.issues).toEqual([{ field: 'query.to', message: 'must be after `from`' }]);
  });
});

describe('the integrity check', () => {
  let h: Harness;
  let viewer: Person;
  let devices: string[];

  beforeAll(async () => {
    h = await startHarness();
    viewer = await h.person('viewer');
    devices = await insertDevices(h.pool, 2);
  });
  afterAll(() => h.stop());

  it("finds every device's chain intact when nothing was touched", async () => {
    for (const device of devices) {
      for (let i = 0; i < 3; i++) {
        const call = await insertCall(h.pool, { deviceId: device, verdict: 'verified' });
        await insertEvidenceChain(
          h.owner,
          SEALED_CALL_LINKS.map((stage) => ({ callId: call, deviceId: device, stage })),
        );
      }
    }
    const r = await h.request('GET', '/api/v1/reports/integrity', { key: viewer.key });
    expect(r.body).toEqual({
      ok: true,
      checkedDevices: 2,
      checkedRows: 36,
      checkedHeads: 0,
      checkedSeals: 6,
      broken: [],
      sealMismatches: [],
      sealMismatchCount: 0,
      sealSignatureProblems: [],
      sealSignatureProblemCount: 0,
      checkpoint: null,
    });
  });

  it('names a whole call history forged as fleet_app, its chain hashed consistently, by its unsigned seal', async () => {
    const forgedDevice = (await insertDevices(h.pool, 1, { start: 50 }))[0]!;
    // Everything a holder of the application role can write: the call row, five stages and a seal, all chained.
    const call = await insertCall(h.pool, { deviceId: forgedDevice, verdict: 'verified' });
    const links = SEALED_CALL_LINKS.map((stage) => ({ callId: call, deviceId: forgedDevice, stage }));
    const written = await insertEvidenceChain(h.pool, links, null);
    const r = await h.request('GET', `/api/v1/reports/integrity?deviceId=${forgedDevice}`, {
      key: viewer.key,
    });
    expect(r.body).toMatchObject({
      ok: false,
      broken: [],
      sealMismatchCount: 0,
      sealSignatureProblemCount: 1,
    });
    expect(r.body.sealSignatureProblems).toEqual([
      {
        callId: call,
        deviceId: forgedDevice,
        sealSeq: String(written.at(-1)!.seq),
        evidenceId: written.at(-1)!.id,
        problem: 'seal_unsigned',
        detail: 'the seal carries no signature',
      },
    ]);

    // A seal signed with a key of the forger's own is named too: the deployment does not list it.
    const second = await insertCall(h.pool, { deviceId: forgedDevice, verdict: 'verified' });
    const forger = sealSigner(generateKeyPairSync('ed25519').privateKey, 'voice-fleet-orchestrator');
    await insertEvidenceChain(
      h.pool,
      SEALED_CALL_LINKS.map((stage) => ({ callId: second, deviceId: forgedDevice, stage })),
      forger.sign,
    );
    const again = await h.request('GET', `/api/v1/reports/integrity?deviceId=${forgedDevice}`, {
      key: viewer.key,
    });
    expect(again.body.sealSignatureProblems.map((p: { problem: string }) => p.problem)).toEqual(
      call < second ? ['seal_unsigned', 'seal_unknown_key'] : ['seal_unknown_key', 'seal_unsigned'],
    );
  });

  it('names the first row of a chain whose content was changed behind the application', async () => {
    const { rows } = await h.owner.query(
      `SELECT id::text, call_id, seq::text FROM evidence e WHERE device_id = $1 AND stage = 'response' ORDER BY e.seq LIMIT 1 OFFSET 1`,
      [devices[1]],
    );
    const target = rows[0];
    // Only the owner can do this, and only by switching the append-only trigger off first.
    await expect(
      h.pool.query(`UPDATE evidence SET payload = '{}' WHERE id = $1`, [target.id]),
    ).rejects.toThrow(/permission denied/);
    await h.owner.query('ALTER TABLE evidence DISABLE TRIGGER evidence_append_only');
    await h.owner.query(
      `UPDATE evidence SET payload = jsonb_set(payload, '{isError}', 'true') WHERE id = $1`,
      [target.id],
    );
    await h.owner.query('ALTER TABLE evidence ENABLE TRIGGER evidence_append_only');

    const r = await h.request('GET', '/api/v1/reports/integrity', { key: viewer.key });
    expect(r.body.ok).toBe(false);
    expect(r.body.broken).toEqual([
      {
        deviceId: devices[1],
        seq: target.seq,
        evidenceId: target.id,
        callId: target.call_id,
        stage: 'response',
        problem: 'hash_mismatch',
        detail: expect.any(String),
      },
    ]);
    const one = await h.request('GET', `/api/v1/reports/integrity?deviceId=${devices[0]}`, {
      key: viewer.key,
    });
    expect(one.body).toMatchObject({ ok: true, checkedDevices: 1 });
  });

  it('refuses the application role any change to a sealed call', async () => {
    const { rows } = await h.pool.query(`SELECT id FROM call WHERE device_id = $1 LIMIT 1`, [devices[0]]);
    await expect(
      h.pool.query(`UPDATE call SET verdict = 'device_error' WHERE id = $1`, [rows[0].id]),
    ).rejects.toThrow(/is sealed/);
    await expect(h.pool.query(`DELETE FROM call WHERE id = $1`, [rows[0].id])).rejects.toThrow(/is sealed/);
  });

  it('names a sealed call a superuser changed behind the trigger, field by field, and counts it', async () => {
    const { rows } = await h.owner.query<{ id: string }>(
      `SELECT id FROM call WHERE device_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [devices[0]],
    );
    const callId = rows[0]!.id;
    await h.owner.query('ALTER TABLE call DISABLE TRIGGER call_sealed_is_final');
    await h.owner.query(`UPDATE call SET verdict = 'device_error', verdict_reason = 'forged' WHERE id = $1`, [
      callId,
    ]);
    await h.owner.query('ALTER TABLE call ENABLE TRIGGER call_sealed_is_final');

    const r = await h.request('GET', `/api/v1/reports/integrity?deviceId=${devices[0]}`, { key: viewer.key });
    expect(r.body.ok).toBe(false);
    expect(r.body.broken).toEqual([]); // the chain itself is intact: the row no longer says what it sealed
    expect(r.body.sealMismatchCount).toBe(2);
    expect(r.body.sealMismatches).toEqual([
      expect.objectContaining({ callId, field: 'verdict', call: 'device_error', seal: 'verified' }),
      expect.objectContaining({ callId, field: 'reason', call: 'forged', seal: null }),
    ]);
    const metrics = await h.request('GET', '/metrics');
    expect(metrics.text).toMatch(
      /admin_api_integrity_failures_total\{[^}]*problem="seal_mismatch"[^}]*\} 2\n/,
    );
  });

  it('notices a row removed from the middle of a chain', async () => {
    const { rows } = await h.owner.query(
      `SELECT id::text, seq::text FROM evidence e WHERE device_id = $1 ORDER BY e.seq LIMIT 1 OFFSET 4`,
      [devices[0]],
    );
    await h.owner.query('ALTER TABLE evidence DISABLE TRIGGER evidence_append_only');
    await h.owner.query('DELETE FROM evidence WHERE id = $1', [rows[0].id]);
    await h.owner.query('ALTER TABLE evidence ENABLE TRIGGER evidence_append_only');
    const r = await h.request('GET', `/api/v1/reports/integrity?deviceId=${devices[0]}`, { key: viewer.key });
    expect(r.body.broken).toEqual([
      expect.objectContaining({ seq: String(Number(rows[0].seq) + 1), problem: 'seq_gap' }),
    ]);
  });
});
