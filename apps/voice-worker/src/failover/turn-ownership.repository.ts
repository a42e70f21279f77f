import { sql, type Database } from '@fleet/db';
import { VOICE_WORKER_KIND } from './worker-liveness.repository';

/** What a worker that got a turn's job may do with it. */
export type TurnClaim =
  /** First pick-up: run it. */
  | 'run'
  /** Picked up before by a worker that is gone (SIGKILL mid-turn): answer it with an apology, do not redo it. */
  | 'orphaned'
  /** Finished, or a live worker is on it (a job delivered twice). */
  | 'skip';

/** An open turn as the apology needs it: where to say it, in which language. */
export interface OrphanTurn {
  id: string;
  /** The worker that held it (null: no worker ever took its job). */
  workerId: string | null;
  deviceId: string;
  sessionId: string | null;
  source: 'text' | 'audio';
  language: string | null;
  timings: Record<string, unknown>;
  createdAt: Date;
}

const OPEN_STATES = ['listening', 'thinking', 'calling', 'speaking'] as const;

/**
 * Who answers a voice turn. A turn names the worker on it (`worker_id`) and when a worker first ran its job
 * (`picked_up_at`); a worker is alive while its heartbeat in `service_instance` is fresh. A turn whose worker
 * died is never re-run (its tool calls went out already: a rerun would send them again); it is settled as
 * failed with an apology, exactly once, by whoever gets there first (a stalled job's new worker, or the sweep).
 */
export class TurnOwnershipRepository {
  constructor(
    private readonly db: Database,
    private readonly workerId: string,
    private readonly liveWithinMs: number,
  ) {}

  private liveWorkers() {
    return this.db
      .selectFrom('service_instance')
      .select('id')
      .where('kind', '=', VOICE_WORKER_KIND)
      .where('heartbeat_at', '>', sql<Date>`now() - make_interval(secs => ${this.liveWithinMs / 1000})`);
  }

  /** Called as a worker starts the job (the row is locked so two workers cannot both take it). */
  async claim(turnId: string): Promise<TurnClaim> {
    const row = await this.db
      .with('old', (db) =>
        db
          .selectFrom('voice_turn')
          .select(['id', 'picked_up_at', 'worker_id'])
          .where('id', '=', turnId)
          .where('state', 'in', OPEN_STATES)
          .forUpdate(),
      )
      .updateTable('voice_turn as t')
      .from('old')
      .set({ worker_id: this.workerId, picked_up_at: sql<Date>`coalesce(t.picked_up_at, now())` })
      .whereRef('t.id', '=', 'old.id')
      .where((eb) =>
        eb.or([
          eb('old.picked_up_at', 'is', null),
          eb('old.worker_id', 'is', null),
          eb('old.worker_id', '=', this.workerId),
          eb('old.worker_id', 'not in', this.liveWorkers()),
        ]),
      )
      .returning(sql<boolean>`old.picked_up_at IS NULL`.as('fresh'))
      .executeTakeFirst();
    if (!row) return 'skip';
    return row.fresh ? 'run' : 'orphaned';
  }

  /**
   * Settles one open turn as failed with this apology; false when it was settled already (someone else got
   * there first, or it finished).
   */
  async settle(
    turnId: string,
    s: { reply: string; mode: 'spoken' | 'text'; error: string },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('voice_turn')
      .set({
        state: 'failed',
        reply: s.reply,
        reply_mode: s.mode,
        error: s.error,
        worker_id: this.workerId,
        finished_at: sql<Date>`now()`,
      })
      .where('id', '=', turnId)
      .where('state', 'in', OPEN_STATES)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Open turns nobody will answer: their worker stopped heart-beating, or (never picked up, no worker) their
   * job has waited longer than `lostAfterMs` (lost with a Redis restart). Oldest first.
   */
  orphans(lostAfterMs: number, limit = 50): Promise<OrphanTurn[]> {
    return this.openTurns()
      .where((eb) =>
        eb.or([
          eb.and([
            eb('worker_id', 'is not', null),
            eb('worker_id', '<>', this.workerId),
            eb('worker_id', 'not in', this.liveWorkers()),
          ]),
          eb.and([
            eb('worker_id', 'is', null),
            eb('picked_up_at', 'is', null),
            eb('created_at', '<', sql<Date>`now() - make_interval(secs => ${lostAfterMs / 1000})`),
          ]),
        ]),
      )
      .orderBy('created_at')
      .limit(limit)
      .execute()
      .then((rows) => rows.map(toTurn));
  }

  /** Turns this worker id held in an earlier life (a restart with the same WORKER_ID): orphans too. */
  heldBefore(startedAt: Date): Promise<OrphanTurn[]> {
    return this.openTurns()
      .where('worker_id', '=', this.workerId)
      .where('created_at', '<', startedAt)
      .execute()
      .then((rows) => rows.map(toTurn));
  }

  private openTurns() {
    return this.db
      .selectFrom('voice_turn')
      .select(['id', 'device_id', 'session_id', 'source', 'language', 'timings', 'created_at', 'worker_id'])
      .where('state', 'in', OPEN_STATES);
  }
}

function toTurn(r: {
  id: string;
  device_id: string;
  session_id: string | null;
  source: 'text' | 'audio';
  language: string | null;
  timings: unknown;
  created_at: Date;
  worker_id: string | null;
}): OrphanTurn {
  return {
    id: r.id,
    deviceId: r.device_id,
    sessionId: r.session_id,
    source: r.source,
    language: r.language,
    timings: (r.timings ?? {}) as Record<string, unknown>,
    createdAt: r.created_at,
    workerId: r.worker_id,
  };
}
