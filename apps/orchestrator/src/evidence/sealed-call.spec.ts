import { SealKeyring, sealSigner } from '@fleet/audit-export';
import { resolveSealSigningKey } from '@fleet/config';
import { ChainWalk, sealMismatches, type ChainLink } from '@fleet/domain';
import { startPlatform, type Platform } from '../../test/platform-fixture';

describe('a sealed call in its device chain', () => {
  let p: Platform;
  let operator: string;

  beforeAll(async () => {
    p = await startPlatform();
    operator = await p.operator();
  });
  afterAll(() => p.close());

  it('has its verdict, reason and time chained right after its five rows, as its row says them', async () => {
    const device = await p.device();
    const verified = await p.call({
      device,
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 40 },
      origin: 'operator',
      operatorId: operator,
    });
    await p.waitVerdict(verified);
    const refused = await p.call({
      device,
      tool: 'self.no_such_tool',
      arguments: {},
      origin: 'operator',
      operatorId: operator,
    });
    await p.waitVerdict(refused);

    const { rows: links } = await p.sql.query<{
      seq: string;
      call_id: string;
      stage: ChainLink;
      payload: unknown;
      prev_hash: string;
      hash: string;
      created_at: Date;
      seal_key_id: string | null;
      seal_signature: string | null;
    }>(
      `SELECT seq::text, call_id, stage, payload, prev_hash, hash, created_at, seal_key_id, seal_signature
         FROM evidence e
        WHERE device_id = $1 ORDER BY e.seq`,
      [device.mac],
    );
    const walk = new ChainWalk();
    for (const l of links)
      walk.next({
        ...l,
        deviceId: device.mac,
        callId: l.call_id,
        prevHash: l.prev_hash,
        createdAt: l.created_at.toISOString(),
      });
    expect(walk.breaks()).toEqual([]);

    for (const callId of [verified, refused]) {
      const own = links.filter((l) => l.call_id === callId);
      expect(own.map((l) => l.stage).slice(-1)).toEqual(['seal']);
      expect(own.filter((l) => l.stage === 'seal')).toHaveLength(1);
      const { rows } = await p.sql.query<{ verdict: string; reason: string; sealed_at: Date }>(
        'SELECT verdict, verdict_reason AS reason, sealed_at FROM call WHERE id = $1',
        [callId],
      );
      const row = rows[0]!;
      const seal = own[own.length - 1]!;
      expect(
        sealMismatches(
          {
            callId,
            deviceId: device.mac,
            verdict: row.verdict,
            reason: row.reason,
            sealedAt: row.sealed_at.toISOString(),
          },
          { deviceId: device.mac, payload: seal.payload },
        ),
      ).toEqual([]);
    }
    expect((await p.seal(refused))?.payload).toMatchObject({ verdict: 'rejected' });

    // DESIGN §6: each seal, and no other link, carries the orchestrator's signature over its hash.
    const ring = new SealKeyring([sealSigner(resolveSealSigningKey(undefined, 'test')).verifierKey]);
    for (const l of links) {
      if (l.stage !== 'seal') expect([l.seal_key_id, l.seal_signature]).toEqual([null, null]);
      else
        expect(ring.check(l.hash, l.seal_key_id, l.seal_signature)).toEqual({
          ok: true,
          keyName: 'voice-fleet-orchestrator',
        });
    }
  });
});
