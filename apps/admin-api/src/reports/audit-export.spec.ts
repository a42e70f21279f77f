import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicKeyFromText, verifyAuditExport } from '@fleet/audit-export';
import { insertCall, insertEvidenceChain, SEALED_CALL_LINKS } from '../../test/fixtures';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

const ROOT = join(__dirname, '../../../..');
const VERIFY_CLI = join(ROOT, 'dist/tools/audit-verify/src/cli.js');
const BUNDLED_VERIFIER = join(ROOT, 'dist/audit-verify/audit-verify.cjs');

/** `npm run audit:verify -- <file>` as an auditor runs it: the built tool, no database, nothing but the file. */
function auditVerify(file: string, publicKey?: string) {
  const keyArgs = publicKey === undefined ? [] : ['--public-key', publicKey];
  const run = spawnSync(process.execPath, [VERIFY_CLI, file, ...keyArgs], { encoding: 'utf8' });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the signed audit export', () => {
  let h: Harness;
  let viewer: Person;
  let devices: string[];
  let inPeriod: string;
  const day = '2026-06-01';
  const period = `from=${day}T00:00:00Z&to=2026-06-02T00:00:00Z`;

  beforeAll(async () => {
    h = await startHarness();
    viewer = await h.person('viewer');
    devices = await insertDevices(h.pool, 2);
    // Device 0: a call from the day before whose rows interleave with the period's call, so the export must carry
    // rows of a call outside the period to keep the chain whole.
    const before = await insertCall(h.pool, {
      deviceId: devices[0]!,
      verdict: 'no_response',
      createdAt: new Date('2026-05-31T23:59:00Z'),
    });
    inPeriod = await insertCall(h.pool, {
      deviceId: devices[0]!,
      verdict: 'verified',
      reason: 'read back "40"',
      createdAt: new Date(`${day}T10:00:00Z`),
    });
    const link = (callId: string, deviceId: string) => (stage: (typeof SEALED_CALL_LINKS)[number]) => ({
      callId,
      deviceId,
      stage,
    });
    await insertEvidenceChain(h.pool, [
      ...SEALED_CALL_LINKS.slice(0, 2).map(link(before, devices[0]!)), // seq 1, 2
      ...SEALED_CALL_LINKS.slice(0, 4).map(link(inPeriod, devices[0]!)), // 3..6
      ...SEALED_CALL_LINKS.slice(2, 3).map(link(before, devices[0]!)), // 7: another call's row in between
      ...SEALED_CALL_LINKS.slice(4).map(link(inPeriod, devices[0]!)), // 8, 9: effect and seal
      ...SEALED_CALL_LINKS.slice(3).map(link(before, devices[0]!)), // 10..12
    ]);
    const other = await insertCall(h.pool, {
      deviceId: devices[1]!,
      verdict: 'device_error',
      createdAt: new Date(`${day}T11:00:00Z`),
    });
    await insertEvidenceChain(h.pool, SEALED_CALL_LINKS.map(link(other, devices[1]!)));
  });
  afterAll(() => h.stop());

  it('publishes the public key it signs with, to anyone', async () => {
    const r = await h.request('GET', '/api/v1/reports/audit/signing-key');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      algorithm: 'Ed25519',
      fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(publicKeyFromText(r.body.publicKeyPem).asymmetricKeyType).toBe('ed25519');
  });

  it('carries the chain heads it covers and a signature, also without its rows', async () => {
    const key = (await h.request('GET', '/api/v1/reports/audit/signing-key')).body;
    const r = await h.request('GET', `/api/v1/reports/audit?${period}`, { key: viewer.key });
    expect(r.status).toBe(200);
    expect(r.body.calls.total).toBe(2); // the report itself, as before
    expect(r.body.evidence.rows).toBe(false);
    expect(r.body.evidence.chains).toEqual([
      {
        deviceId: devices[0],
        fromSeq: '3',
        prevHash: expect.any(String),
        head: { seq: '9', hash: expect.any(String) },
      },
      {
        deviceId: devices[1],
        fromSeq: '1',
        prevHash: '0'.repeat(64),
        head: { seq: '6', hash: expect.any(String) },
      },
    ]);
    expect(r.body.signature).toMatchObject({ algorithm: 'Ed25519', fingerprint: key.fingerprint });
    expect(verifyAuditExport(r.body, publicKeyFromText(key.publicKey))).toMatchObject({
      signature: 'valid',
      rows: false,
      ok: false,
    });
  });

  it('with its rows, verifies offline, and fails after a one-byte change naming the row', async () => {
    const key = (await h.request('GET', '/api/v1/reports/audit/signing-key')).body.publicKey as string;
    const r = await h.request('GET', `/api/v1/reports/audit?${period}&evidence=rows`, { key: viewer.key });
    expect(r.status).toBe(200);
    expect(r.body.evidence.chains[0].links).toHaveLength(7); // seq 3..9: the period's call and what sits between
    const dir = mkdtempSync(join(tmpdir(), 'audit-export-'));
    const file = join(dir, 'audit.json');
    writeFileSync(file, r.text);
    const verified = auditVerify(file, key);
    expect(verified.output).toContain('VERIFIED: the signature holds under a trusted key and every row fits');
    expect(verified.code).toBe(0);

    // One byte: the JSON-RPC id in the response row of the period's call, 7 → 8.
    const text = readFileSync(file, 'utf8');
    const target = r.body.evidence.chains[0].links.find(
      (l: { callId: string; stage: string }) => l.callId === inPeriod && l.stage === 'response',
    );
    const digit =
      text.lastIndexOf('"jsonrpcId":7', text.indexOf(`"hash":"${target.hash}"`)) + '"jsonrpcId":'.length;
    const changed = join(dir, 'changed.json');
    writeFileSync(changed, `${text.slice(0, digit)}8${text.slice(digit + 1)}`);
    const refused = auditVerify(changed, key);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('signature: INVALID');
    expect(refused.output).toContain(
      `FIRST ROW THAT DOES NOT FIT: device ${devices[0]} seq ${target.seq} (response of call ${inPeriod}): hash_mismatch`,
    );
  });

  it('verifies with the key file the API publishes, and says nothing is proven without a pinned key', async () => {
    const published = await h.request('GET', '/api/v1/reports/audit/signing-key');
    const r = await h.request('GET', `/api/v1/reports/audit?${period}&evidence=rows`, { key: viewer.key });
    const dir = mkdtempSync(join(tmpdir(), 'audit-export-'));
    const [file, keyFile] = [join(dir, 'audit.json'), join(dir, 'signing-key.json')];
    writeFileSync(file, r.text);
    writeFileSync(keyFile, published.text);
    expect(auditVerify(file, keyFile)).toMatchObject({
      code: 0,
      output: expect.stringContaining('VERIFIED: the signature holds under a trusted key'),
    });
    const unpinned = auditVerify(file);
    expect(unpinned.code).toBe(3);
    expect(unpinned.output).toContain('not verified: no trusted key given');
    expect(unpinned.output).not.toContain('VERIFIED');
  });

  it('verifies offline with the bundled verifier copied out of the repository and run with plain node', async () => {
    const key = (await h.request('GET', '/api/v1/reports/audit/signing-key')).body.publicKey as string;
    const r = await h.request('GET', `/api/v1/reports/audit?${period}&evidence=rows`, { key: viewer.key });
    // An auditor's machine: one file, no checkout, no node_modules, no build step.
    const away = mkdtempSync(join(tmpdir(), 'auditor-'));
    copyFileSync(BUNDLED_VERIFIER, join(away, 'audit-verify.cjs'));
    writeFileSync(join(away, 'audit.json'), r.text);
    const { INIT_CWD: _cwd, NODE_PATH: _path, ...env } = process.env;
    const run = spawnSync(process.execPath, ['audit-verify.cjs', 'audit.json', '--public-key', key], {
      cwd: away,
      env,
      encoding: 'utf8',
    });
    expect(run.stdout).toMatch(
      /checkpoint: voice-fleet\.local\/evidence, tree of \d+ \(.*\); 2 seals signed by a listed orchestrator key, 2 shown in the tree/,
    );
    expect(run.stdout).toContain('VERIFIED: the signature holds under a trusted key and every row fits');
    expect(run.status).toBe(0);
  });

  it('names a call history forged as fleet_app with a correct hash chain, by its seal no orchestrator key signed', async () => {
    const key = (await h.request('GET', '/api/v1/reports/audit/signing-key')).body.publicKey as string;
    const forgedDay = '2026-06-03';
    const forged = await insertCall(h.pool, {
      deviceId: devices[1]!,
      verdict: 'verified',
      createdAt: new Date(`${forgedDay}T08:00:00Z`),
    });
    const rows = await insertEvidenceChain(
      h.pool,
      SEALED_CALL_LINKS.map((stage) => ({ callId: forged, deviceId: devices[1]!, stage })),
      null,
    );
    const r = await h.request(
      'GET',
      `/api/v1/reports/audit?from=${forgedDay}T00:00:00Z&to=2026-06-04T00:00:00Z&evidence=rows`,
      { key: viewer.key },
    );
    const dir = mkdtempSync(join(tmpdir(), 'audit-export-'));
    writeFileSync(join(dir, 'forged.json'), r.text);
    const refused = auditVerify(join(dir, 'forged.json'), key);
    expect(refused.output).toContain('signature: valid'); // the platform signed what its database held
    expect(refused.output).toContain(
      `FIRST ROW THAT DOES NOT FIT: device ${devices[1]} seq ${rows.at(-1)!.seq} (seal of call ${forged}): seal_unsigned`,
    );
    expect(refused.code).toBe(1);
  });

  it('has the integrity check name a chain that no longer extends a checkpointed seal, even rehashed and signed', async () => {
    await h.request('GET', `/api/v1/reports/audit?${period}&evidence=rows`, { key: viewer.key });
    const device = devices[1]!;
    const { rows } = await h.owner.query<{ call_id: string; seq: string }>(
      `SELECT call_id, seq::text FROM evidence e WHERE device_id = $1 AND stage = 'seal' ORDER BY e.seq LIMIT 1`,
      [device],
    );
    const seal = rows[0]!;
    // The owner cuts the chain back before the checkpointed seal and writes it again: hashes consistent, seal
    // signed (as if the key had leaked), but no longer the seal the checkpoint committed to.
    await h.owner.query('ALTER TABLE evidence DISABLE TRIGGER evidence_append_only');
    await h.owner.query('DELETE FROM evidence WHERE device_id = $1 AND seq >= $2', [
      device,
      Number(seal.seq) - 1,
    ]);
    await h.owner.query('ALTER TABLE evidence ENABLE TRIGGER evidence_append_only');
    await insertEvidenceChain(h.owner, [
      { callId: seal.call_id, deviceId: device, stage: 'effect', payload: { rewritten: true } },
      { callId: seal.call_id, deviceId: device, stage: 'seal' },
    ]);
    const r = await h.request('GET', `/api/v1/reports/integrity?deviceId=${device}`, { key: viewer.key });
    expect(r.body).toMatchObject({ ok: false, broken: [], sealSignatureProblemCount: 0 });
    expect(r.body.checkpoint.problems).toEqual([
      {
        deviceId: device,
        seq: seal.seq,
        problem: 'checkpointed_link_changed',
        detail: 'the chain no longer extends the checkpointed seal: its link has another hash',
      },
    ]);
  });

  it('refuses a period with more chain links than one export may carry, naming the field', async () => {
    const small = await startHarness({ AUDIT_EXPORT_MAX_LINKS: '5' });
    try {
      const [device] = await insertDevices(small.pool, 1);
      const call = await insertCall(small.pool, {
        deviceId: device!,
        verdict: 'verified',
        createdAt: new Date(`${day}T09:00:00Z`),
      });
      await insertEvidenceChain(
        small.pool,
        SEALED_CALL_LINKS.map((stage) => ({ callId: call, deviceId: device!, stage })),
      );
      const person = await small.person('viewer');
      const r = await small.request('GET', `/api/v1/reports/audit?${period}&evidence=rows`, {
        key: person.key,
      });
      expect(r.status).toBe(422);
      expect(r.body.issues).toEqual([{ field: 'query.from', message: expect.stringContaining('too many') }]);
    } finally {
      await small.stop();
    }
  });
});
