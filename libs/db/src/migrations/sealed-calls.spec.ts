import { join } from 'node:path';
import { Client } from 'pg';
import {
  ChainWalk,
  evidenceHash,
  GENESIS_HASH,
  sealMismatches,
  type ChainLink,
  type StoredLink,
} from '@fleet/domain';
import { createTestDatabase, databaseUrl, TEST_POSTGRES_URL, type TestDatabase } from '@fleet/testing';
import { applyMigrations } from './apply-migrations';
import { readMigrationFiles } from './migration-files';

// The seal migration's exemptions from schema.prisma (a trigger on call, audit_event's grants and trigger, the
// backfill of seals for calls sealed before), tested on their own.
const SEAL_MIGRATION = '20261201212100_chain_call_seals';
const DEVICE = 'a0:85:e3:f4:49:34';
const sealed = '00000000-0000-4000-8000-000000000001';
const open = '00000000-0000-4000-8000-000000000002';

describe('a sealed call', () => {
  let db: TestDatabase;
  let app: Client;
  let owner: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    app = new Client({ connectionString: db.url });
    owner = new Client({ connectionString: db.ownerUrl });
    await Promise.all([app.connect(), owner.connect()]);
    await app.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, 'uuid-1', now())`, [DEVICE]);
    await app.query(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at, state, verdict, verdict_reason, sealed_at)
       VALUES ($1, $3, 0, 'self.get_device_status', '{}', 'operator', now(), 'finished', 'device_error', 'the device said no', now()),
              ($2, $3, 0, 'self.get_device_status', '{}', 'operator', now(), 'queued', NULL, NULL, NULL)`,
      [sealed, open, DEVICE],
    );
  });
  afterAll(async () => {
    await Promise.all([app.end(), owner.end()]);
    await db.drop();
  });

  it('cannot be changed by the application role, in any field', async () => {
    await expect(app.query(`UPDATE call SET verdict = 'verified' WHERE id = $1`, [sealed])).rejects.toThrow(
      /is sealed .*UPDATE refused/,
    );
    await expect(app.query(`UPDATE call SET reason = 'edited' WHERE id = $1`, [sealed])).rejects.toThrow(
      /is sealed/,
    );
    await expect(app.query(`DELETE FROM call WHERE id = $1`, [sealed])).rejects.toThrow(/DELETE refused/);
  });

  it('cannot be changed by the owner either, unless the trigger is switched off on purpose', async () => {
    await expect(owner.query(`UPDATE call SET verdict = NULL WHERE id = $1`, [sealed])).rejects.toThrow(
      /is sealed/,
    );
    const { rows } = await app.query('SELECT verdict FROM call WHERE id = $1', [sealed]);
    expect(rows).toEqual([{ verdict: 'device_error' }]);
  });

  it('leaves a call that is not sealed yet free to move on', async () => {
    const moved = await app.query(`UPDATE call SET state = 'sending' WHERE id = $1`, [open]);
    expect(moved.rowCount).toBe(1);
  });

  it('cannot be sealed without its seal in the chain, saying the same verdict, reason and time', async () => {
    const sealedAt = '2026-12-01T12:00:00.250Z';
    const seal = (verdict: string) =>
      app.query(
        `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash) VALUES ($1, $2, 'seal', 1, $3, 'p', 'h')`,
        [open, DEVICE, JSON.stringify({ verdict, reason: 'read back', sealedAt })],
      );
    const sealCall = () =>
      app.query(
        `UPDATE call SET state = 'finished', verdict = 'verified', verdict_reason = 'read back', sealed_at = $2
          WHERE id = $1 AND verdict IS NULL`,
        [open, sealedAt],
      );
    await expect(sealCall()).rejects.toThrow(/without its seal in the evidence chain/);
    await app.query('BEGIN');
    await sealCall();
    await seal('device_error'); // a seal that says something else
    await expect(app.query('COMMIT')).rejects.toThrow(/without its seal/);
    await app.query('BEGIN');
    await sealCall(); // the orchestrator's order: the row, then its evidence, checked at commit
    await seal('verified');
    await app.query('COMMIT');
    const { rows } = await app.query('SELECT verdict FROM call WHERE id = $1', [open]);
    expect(rows).toEqual([{ verdict: 'verified' }]);
  });
});

describe('audit events', () => {
  let db: TestDatabase;
  let app: Client;
  let owner: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    app = new Client({ connectionString: db.url });
    owner = new Client({ connectionString: db.ownerUrl });
    await Promise.all([app.connect(), owner.connect()]);
  });
  afterAll(async () => {
    await Promise.all([app.end(), owner.end()]);
    await db.drop();
  });

  it('may be added by the application role but never changed or removed', async () => {
    await app.query(`INSERT INTO audit_event (action, target_type) VALUES ('call.create', 'call')`);
    await expect(app.query('DELETE FROM audit_event')).rejects.toThrow(/permission denied/);
    await expect(app.query(`UPDATE audit_event SET action = 'nothing'`)).rejects.toThrow(/permission denied/);
    await expect(app.query('TRUNCATE audit_event')).rejects.toThrow(/permission denied/);
    await expect(owner.query('DELETE FROM audit_event')).rejects.toThrow(/append-only/);
    await expect(owner.query('TRUNCATE audit_event')).rejects.toThrow(/append-only/);
    const { rows } = await app.query('SELECT action FROM audit_event');
    expect(rows).toEqual([{ action: 'call.create' }]);
  });
});

describe('the seal migration on a database that already has sealed calls', () => {
  const name = `fleet_seal_backfill_${process.pid}_${Date.now()}`;
  let client: Client;

  beforeAll(async () => {
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    client = new Client({ connectionString: databaseUrl(name) });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('chains a seal for every old sealed call, so that the integrity check holds on old data', async () => {
    const files = readMigrationFiles(join(__dirname, '../../../../prisma/migrations'));
    await applyMigrations(
      client,
      files.filter((f) => f.name < SEAL_MIGRATION),
    );
    // Old data: calls sealed with and without rows, reasons that JSON must escape, one without a sealed time.
    const calls: {
      id: string;
      device: string;
      verdict: string;
      reason: string | null;
      sealedAt: string | null;
    }[] = [
      {
        id: `${sealed}`,
        device: DEVICE,
        verdict: 'verified',
        reason: 'read back "40" \\ ok\n— fine ✓',
        sealedAt: '2026-11-30T10:00:00.123Z',
      },
      { id: `${open}`, device: DEVICE, verdict: 'device_error', reason: null, sealedAt: null },
      {
        id: '00000000-0000-4000-8000-000000000003',
        device: 'a0:85:e3:f4:49:35',
        verdict: 'rejected',
        reason: 'tab\there',
        sealedAt: '2026-11-30T11:00:00.000Z',
      },
    ];
    await client.query(
      `INSERT INTO device (id, client_id, updated_at) VALUES ($1, 'u1', now()), ('a0:85:e3:f4:49:35', 'u2', now())`,
      [DEVICE],
    );
    for (const c of calls) {
      await client.query(
        `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at, state, verdict, verdict_reason, sealed_at, created_at)
         VALUES ($1, $2, 0, 't', '{}', 'operator', now(), 'finished', $3, $4, $5, '2026-11-30T09:00:00Z')`,
        [c.id, c.device, c.verdict, c.reason, c.sealedAt],
      );
    }
    // The first device already has a chain (two rows of the first call).
    let prev = GENESIS_HASH;
    for (const [i, stage] of (['discovery', 'decision'] as const).entries()) {
      const row = {
        callId: sealed,
        deviceId: DEVICE,
        stage,
        seq: i + 1,
        payload: { i },
        createdAt: '2026-11-30T09:00:00.000Z',
      };
      const hash = evidenceHash(prev, row);
      await client.query(
        `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [sealed, DEVICE, stage, row.seq, JSON.stringify(row.payload), prev, hash, row.createdAt],
      );
      prev = hash;
    }

    await applyMigrations(client, files);

    const { rows: links } = await client.query<{
      device_id: string;
      seq: string;
      call_id: string;
      stage: ChainLink;
      payload: unknown;
      prev_hash: string;
      hash: string;
      created_at: Date;
    }>(
      `SELECT device_id, seq::text, call_id, stage, payload, prev_hash, hash, created_at FROM evidence e ORDER BY e.device_id, e.seq`,
    );
    expect(links.map((l) => [l.device_id, l.seq, l.stage])).toEqual([
      [DEVICE, '1', 'discovery'],
      [DEVICE, '2', 'decision'],
      [DEVICE, '3', 'seal'], // sealed first (the one without a sealed time sorts by when it was created)
      [DEVICE, '4', 'seal'],
      ['a0:85:e3:f4:49:35', '1', 'seal'],
    ]);
    const walk = new ChainWalk();
    for (const l of links) {
      const link: StoredLink = {
        deviceId: l.device_id,
        seq: l.seq,
        callId: l.call_id,
        stage: l.stage,
        payload: l.payload,
        prevHash: l.prev_hash,
        hash: l.hash,
        createdAt: l.created_at.toISOString(),
      };
      walk.next(link);
    }
    expect(walk.breaks()).toEqual([]);
    for (const c of calls) {
      const seal = links.find((l) => l.call_id === c.id && l.stage === 'seal')!;
      const call = {
        callId: c.id,
        deviceId: c.device,
        verdict: c.verdict,
        reason: c.reason,
        sealedAt: c.sealedAt,
      };
      expect(sealMismatches(call, { deviceId: seal.device_id, payload: seal.payload })).toEqual([]);
    }
  });
});
