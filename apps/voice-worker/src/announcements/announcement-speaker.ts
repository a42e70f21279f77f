import { announcementArgumentsSchema } from '@fleet/domain';
import type { Logger } from '@fleet/telemetry';
import { languageOf } from '../language';
import type { ListenSignal } from '../sessions/listen-events';
import type { OpenSession } from '../sessions/session-directory';
import type { ReplyPresenter } from '../turns/reply-presenter';
import { TurnClock } from '../turns/turn-timings';
import type { AnnouncementDeliveryRepository } from './announcement-delivery.repository';
import { PlaybackWatch } from './playback-watch';

/**
 * Speaks announcements inside the sessions this worker owns (xiaozhi §2.2: the server cannot open one; speech plays
 * only between `tts start` and `tts stop` of a session the device opened). When a session opens, each announcement
 * the orchestrator has parked for the device is claimed, synthesised and streamed as a reply is, and how the
 * device showed the end of playback is written for the orchestrator, which seals the call.
 */
export class AnnouncementSpeaker {
  private readonly watches = new Map<string, PlaybackWatch>();

  constructor(
    private readonly deps: {
      deliveries: Pick<AnnouncementDeliveryRepository, 'claimNext' | 'stopped' | 'finished'>;
      presenter: Pick<ReplyPresenter, 'present'>;
      /** Wakes the orchestrator that owns the call (its partition's stream). */
      wake: (callId: string, deviceId: string) => Promise<void>;
      /** After `tts stop`, how long the device may take to say `listen start` or go idle. */
      heardWithinMs: number;
      logger: Logger;
    },
  ) {}

  opened(session: OpenSession): void {
    this.speakAll(session).catch((err: unknown) =>
      this.deps.logger.warn({ err, sessionId: session.sessionId }, 'announcements in a session failed'),
    );
  }

  signal(signal: ListenSignal): void {
    this.watches.get(signal.session_id)?.signal(signal);
  }

  closed(sessionId: string): void {
    this.watches.get(sessionId)?.closed();
  }

  private async speakAll(session: OpenSession): Promise<void> {
    for (;;) {
      const claimed = await this.deps.deliveries.claimNext(session.mac, session.sessionId);
      if (!claimed) return;
      const watch = new PlaybackWatch(session.sessionId);
      this.watches.set(session.sessionId, watch);
      try {
        await this.speak(session, claimed.callId, claimed.arguments, watch);
      } finally {
        this.watches.delete(session.sessionId);
        await this.deps.wake(claimed.callId, session.mac).catch((err: unknown) =>
          // The orchestrator's sweep finds the call at its effect deadline all the same.
          this.deps.logger.warn({ err, callId: claimed.callId }, 'cannot wake the announcement call'),
        );
      }
      if (watch.aborted) return; // a user who cut one short is not read the next
    }
  }

  private async speak(
    session: OpenSession,
    callId: string,
    raw: Record<string, unknown>,
    watch: PlaybackWatch,
  ): Promise<void> {
    const args = announcementArgumentsSchema.safeParse(raw);
    let failure: string | undefined;
    if (!args.success) failure = 'not an announcement';
    else {
      const { text, language } = args.data;
      await this.deps.presenter
        .present(
          { mode: 'spoken', mac: session.mac, session },
          { text, emotion: 'neutral' },
          languageOf(text, language),
          TurnClock.start('request', new Date()),
        )
        .catch((err: unknown) => {
          failure = err instanceof Error ? err.message : String(err);
        });
    }
    watch.ttsStopped();
    await this.deps.deliveries.stopped(callId, failure);
    const { heard, at } = await watch.result(this.deps.heardWithinMs);
    await this.deps.deliveries.finished(callId, heard, at);
  }
}
