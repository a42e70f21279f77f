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

/** What issuing a challenge did to the MAC's others. */
export interface IssueEffect {
  /** This Client-Id already had one outstanding: the new challenge replaced it. */
  renewed: boolean;
  /** Challenges of other Client-Ids dropped, oldest first, to keep the MAC within its cap. */
  displaced: number;
}

/**
 * Challenges of activation v2 (xiaozhi §4.3): rows, so every replica sees them and an expiry outlives a restart
 * (DESIGN §1: deadlines are rows, not timers). One outstanding challenge per (MAC, Client-Id), a few per MAC: a
 * check-in that claims the MAC with another Client-Id gets its own challenge and leaves the real device's
 * alone (only the eFuse key's HMAC can answer either). Taking one deletes it.
 */
export class ActivationChallengesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Issues `challenge` to the claim's (MAC, Client-Id), replacing that pair's earlier one; keeps the MAC's
   * `perMac` newest; sweeps expired ones of any device.
   */
  async issue(claim: ChallengeClaim, challenge: string, ttlMs: number, perMac: number): Promise<IssueEffect> {
    return this.db.transaction().execute(async (tx) => {
      const gone = await tx
        .deleteFrom('activation_challenge')
        .where((w) =>
          w.or([
            w.and([w('device_id', '=', claim.mac), w('client_id_hash', '=', claim.clientIdHash)]),
            w('expires_at', '<', sql<Date>`now()`),
          ]),
        )
        .returning(['device_id', 'client_id_hash', sql<boolean>`expires_at >= now()`.as('live')])
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
        // A concurrent check-in of the same pair: the later challenge is the one outstanding.
        .onConflict((c) =>
          c.columns(['device_id', 'client_id_hash']).doUpdateSet((e) => ({
            challenge: e.ref('excluded.challenge'),
            serial_number: e.ref('excluded.serial_number'),
            body: e.ref('excluded.body'),
            created_at: sql<Date>`now()`,
            expires_at: e.ref('excluded.expires_at'),
          })),
        )
        .execute();
      const beyondCap = await tx
        .deleteFrom('activation_challenge')
        .where('device_id', '=', claim.mac)
        .where('challenge', 'in', (q) =>
          q
            .selectFrom('activation_challenge')
            .select('challenge')
            .where('device_id', '=', claim.mac)
            .orderBy('created_at', 'desc')
            .orderBy('challenge', 'desc')
            .offset(perMac),
        )
        .executeTakeFirst();
      return {
        renewed: gone.some(
          (r) => r.live && r.device_id === claim.mac && r.client_id_hash === claim.clientIdHash,
        ),
        displaced: Number(beyondCap.numDeletedRows),
      };
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
