import { sql, type Database } from '@fleet/db';

export interface ChallengeClaim {
  mac: string;
  clientIdHash: string;
  serialNumber: string;
  /** The check-in's system info (its uuid already hashed). */
  body: unknown;
}

export interface IssuedChallenge extends ChallengeClaim {
  challenge: string;
}

/**
 * Challenges of activation v2 (xiaozhi §4.3): rows, so every replica sees them and an expiry outlives a restart
 * (DESIGN §1: deadlines are rows, not timers). One outstanding challenge per MAC; taking one deletes it.
 */
export class ActivationChallengesRepository {
  constructor(private readonly db: Database) {}

  /** Replaces the MAC's outstanding challenge (and sweeps expired ones of any device). */
  async issue(claim: ChallengeClaim, challenge: string, ttlMs: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .deleteFrom('activation_challenge')
        .where((w) => w.or([w('device_id', '=', claim.mac), w('expires_at', '<', sql<Date>`now()`)]))
        .execute();
      await tx
        .insertInto('activation_challenge')
        .values({
          challenge,
          device_id: claim.mac,
          client_id_hash: claim.clientIdHash,
          serial_number: claim.serialNumber,
          body: JSON.stringify(claim.body ?? null),
          expires_at: sql<Date>`now() + make_interval(secs => ${ttlMs / 1000})`,
        })
        .execute();
    });
  }

  /** The challenge as it was issued (`expired` past its time); gone afterwards either way (single use). */
  async take(challenge: string): Promise<(IssuedChallenge & { expired: boolean }) | undefined> {
    const row = await this.db
      .deleteFrom('activation_challenge')
      .where('challenge', '=', challenge)
      .returning([
        'device_id',
        'client_id_hash',
        'serial_number',
        'body',
        sql<boolean>`expires_at > now()`.as('fresh'),
      ])
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      challenge,
      expired: !row.fresh,
      mac: row.device_id,
      clientIdHash: row.client_id_hash,
      serialNumber: row.serial_number,
      body: row.body,
    };
  }
}
