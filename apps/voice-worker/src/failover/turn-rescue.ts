import type { PlatformEventBus } from '@fleet/platform-client';
import type { Logger } from '@fleet/telemetry';
import { languageOf } from '../language';
import type { SessionDirectory } from '../sessions/session-directory';
import { SORRY } from '../turns/apology';
import type { ReplyPresenter } from '../turns/reply-presenter';
import { replyTargetOf } from '../turns/reply-target';
import { TurnClock } from '../turns/turn-timings';
import type { VoiceMetrics } from '../voice-worker-metrics';
import type { OrphanTurn, TurnOwnershipRepository } from './turn-ownership.repository';

/**
 * Answers a turn whose worker is gone: settled as failed with the reason (exactly once, whoever calls first),
 * then the apology said on the turn's session, or shown, as any failed turn's is. Its tool calls are not asked
 * again: they went out already and have their own verdicts.
 */
export class TurnRescue {
  constructor(
    private readonly deps: {
      ownership: TurnOwnershipRepository;
      sessions: SessionDirectory;
      presenter: ReplyPresenter;
      events: PlatformEventBus;
      metrics: VoiceMetrics;
      logger: Logger;
    },
  ) {}

  /** Resolves whether this call settled it (false: someone else did, or it finished meanwhile). */
  async answer(turn: OrphanTurn, why: string): Promise<boolean> {
    const language = languageOf('', turn.language);
    const target = await replyTargetOf(this.deps.sessions, turn).catch(
      () => ({ mode: 'text', mac: turn.deviceId }) as const,
    );
    const reply = SORRY[language];
    if (!(await this.deps.ownership.settle(turn.id, { reply, mode: target.mode, error: why }))) return false;
    this.deps.logger.warn(
      { turnId: turn.id, deviceId: turn.deviceId, why },
      'voice turn answered with an apology',
    );
    await this.deps.presenter
      .present(
        target,
        { text: reply, emotion: 'sad' },
        language,
        TurnClock.resume(turn.timings, turn.createdAt),
      )
      .catch(() => undefined); // the device may be gone too; the row says what happened
    this.deps.events.publish({
      type: 'voice_turn',
      turnId: turn.id,
      deviceId: turn.deviceId,
      state: 'failed',
      at: new Date().toISOString(),
    });
    this.deps.metrics.turns.inc({ outcome: 'failed', source: turn.source, mode: target.mode });
    this.deps.metrics.rescuedTurns.inc({ why: turn.workerId ? 'worker_lost' : 'job_lost' });
    return true;
  }
}
