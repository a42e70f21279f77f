import type { DeviceCatalogRepository } from '@fleet/db';
import { inSpan, type Logger } from '@fleet/telemetry';
import type { PlatformEventBus } from '@fleet/platform-client';
import type { TurnOwnershipRepository } from '../failover/turn-ownership.repository';
import type { TurnRescue } from '../failover/turn-rescue';
import { languageOf } from '../language';
import type { LlmProvider } from '../providers/llm/llm-provider';
import type { SessionDirectory } from '../sessions/session-directory';
import type { VoiceMetrics } from '../voice-worker-metrics';
import { aiCatalog } from './ai-catalog';
import type { DeviceCalls } from './device-calls';
import { runLlmRounds } from './llm-rounds';
import { SORRY } from './apology';
import type { ReplyPresenter, ReplyTarget } from './reply-presenter';
import { replyTargetOf } from './reply-target';
import { replyFor } from './reply-wording';
import type { ToolCallRecord } from './tool-call-record';
import type { TurnRecord, TurnRepository, TurnState } from './turn-repository';
import { TurnClock } from './turn-timings';
import { observeTurn, turnOutcome } from './turn-observation';

export interface TurnServiceDeps {
  turns: TurnRepository;
  catalogs: Pick<DeviceCatalogRepository, 'currentTools'>;
  sessions: SessionDirectory;
  llm: LlmProvider;
  calls: DeviceCalls;
  presenter: ReplyPresenter;
  ownership: TurnOwnershipRepository;
  rescue: TurnRescue;
  events: PlatformEventBus;
  metrics: VoiceMetrics;
  logger: Logger;
  settings: { maxRounds: number; vision: boolean };
}

/**
 * One voice turn (job `voice.turn`), from a transcript to the reply: the AI-visible catalog, the model's rounds
 * with every call through the orchestrator, the reply worded from the verdicts, given as speech or text. A failure
 * is stored with its reason and said plainly; nothing here throws to BullMQ (a retry would talk over the user).
 */
export class TurnService {
  /** Turns this process is running now: a second delivery of one of their jobs is not a dead worker's. */
  private readonly running = new Set<string>();

  constructor(private readonly deps: TurnServiceDeps) {}

  async execute(turnId: string): Promise<void> {
    if (this.running.has(turnId)) return;
    const turn = await this.deps.turns.load(turnId);
    if (!turn || turn.state === 'finished' || turn.state === 'failed') return;
    // A job whose worker died mid-turn comes back (BullMQ's stalled-job check): answered, never run twice.
    const claim = await this.deps.ownership.claim(turnId);
    if (claim === 'skip') return;
    if (claim === 'orphaned') {
      await this.deps.rescue.answer(
        { ...turn, workerId: 'a stopped worker' },
        'its voice worker stopped in the middle of the turn',
      );
      return;
    }
    this.running.add(turnId);
    try {
      await this.run(turn);
    } finally {
      this.running.delete(turnId);
    }
  }

  private async run(turn: TurnRecord): Promise<void> {
    const clock = TurnClock.resume(turn.timings, turn.createdAt);
    clock.mark('pickedUpMs');
    const language = languageOf(turn.transcript ?? '', turn.language);
    let target: ReplyTarget = { mode: 'text', mac: turn.deviceId };
    let records: ToolCallRecord[] = [];
    let replyStarted = false;
    try {
      target = await this.targetOf(turn);
      const { transcript, transcriptHash } = turn;
      if (!transcript || !transcriptHash) throw new Error('the turn has no transcript');
      await this.deps.presenter.transcript(target, transcript);
      const rows = await this.deps.catalogs.currentTools(turn.deviceId);
      if (!rows) throw new Error('the device has not been discovered yet: its tools are unknown');
      const catalog = aiCatalog(rows, { vision: this.deps.settings.vision });
      await this.setState(turn, 'thinking');
      const rounds = await inSpan('voice llm', { attributes: { 'voice.turn_id': turn.id } }, () =>
        runLlmRounds(this.deps.llm, this.deps.calls, {
          turnId: turn.id,
          deviceId: turn.deviceId,
          transcript,
          utteranceHash: transcriptHash,
          language,
          catalog,
          maxRounds: this.deps.settings.maxRounds,
          clock,
          onCalls: (calls) => this.setState(turn, 'calling', [...calls]),
        }),
      );
      records = rounds.records;
      const reply = replyFor(language, records, rounds.text);
      clock.mark('replyReadyMs');
      await this.setState(turn, 'speaking', records);
      replyStarted = true;
      await inSpan('voice reply', { attributes: { 'voice.reply_mode': target.mode } }, () =>
        this.deps.presenter.present(target, reply, language, clock),
      );
      await this.deps.turns.end(turn.id, {
        state: 'finished',
        reply: reply.text,
        replyMode: target.mode,
        toolCalls: records,
        timings: { ...clock.json },
        language,
      });
      this.finished(turn, 'finished', turnOutcome(records), target, clock);
    } catch (err) {
      await this.fail(turn, err as Error, { target, records, clock, language, replyStarted });
    }
  }

  private targetOf(turn: TurnRecord): Promise<ReplyTarget> {
    return replyTargetOf(this.deps.sessions, turn);
  }

  private async fail(
    turn: TurnRecord,
    err: Error,
    at: {
      target: ReplyTarget;
      records: ToolCallRecord[];
      clock: TurnClock;
      language: 'en' | 'zh';
      replyStarted: boolean;
    },
  ): Promise<void> {
    this.deps.logger.warn({ err, turnId: turn.id }, 'voice turn failed');
    const sorry = SORRY[at.language];
    // Said plainly, unless the reply itself was already being given (its text was shown).
    if (!at.replyStarted) {
      await this.deps.presenter
        .present(at.target, { text: sorry, emotion: 'sad' }, at.language, at.clock)
        .catch(() => undefined); // the device may be gone; the turn row still says why
    }
    await this.deps.turns
      .end(turn.id, {
        state: 'failed',
        reply: at.replyStarted ? undefined : sorry,
        replyMode: at.target.mode,
        toolCalls: at.records,
        timings: { ...at.clock.json },
        error: err.message,
        language: at.language,
      })
      .catch((dbErr: unknown) =>
        this.deps.logger.error({ err: dbErr, turnId: turn.id }, 'cannot store a failed turn'),
      );
    this.finished(turn, 'failed', 'failed', at.target, at.clock);
  }

  private async setState(turn: TurnRecord, state: TurnState, toolCalls?: ToolCallRecord[]): Promise<void> {
    await this.deps.turns.setState(turn.id, state, toolCalls ? { toolCalls } : {});
    this.notice(turn, state);
  }

  private finished(
    turn: TurnRecord,
    state: TurnState,
    outcome: string,
    target: ReplyTarget,
    clock: TurnClock,
  ) {
    this.notice(turn, state);
    observeTurn(this.deps.metrics, { outcome, source: turn.source, mode: target.mode }, clock.json);
  }

  private notice(turn: TurnRecord, state: TurnState): void {
    this.deps.events.publish({
      type: 'voice_turn',
      turnId: turn.id,
      deviceId: turn.deviceId,
      state,
      at: new Date().toISOString(),
    });
  }
}
