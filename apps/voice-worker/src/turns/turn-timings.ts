/**
 * Per-turn stage times, in ms since the turn's origin: the moment speech ended (audio) or the request was made
 * (text). Stored with the turn as JSON (visible at GET /utterances/:id) and continued by whichever worker runs
 * the next stage, since the origin travels with it.
 */
export interface TurnTimingsJson {
  origin: 'speech_end' | 'request';
  originAt: string;
  /** Audio only: silence the VAD waited for after the last voiced frame, and the speech it cut. */
  speechEndMs?: number;
  speechMs?: number;
  asrFinalMs?: number;
  asrMs?: number;
  pickedUpMs?: number;
  llmFirstTokenMs?: number;
  llmRounds?: { round: number; firstTokenMs: number; ms: number }[];
  toolRoundTrips?: { tool: string; callId?: string; verdict?: string; ms: number }[];
  replyReadyMs?: number;
  firstTtsAudioMs?: number;
  replySentMs?: number;
}

export class TurnClock {
  readonly json: TurnTimingsJson;
  private readonly originMs: number;

  constructor(json: TurnTimingsJson) {
    this.json = json;
    this.originMs = Date.parse(json.originAt);
  }

  static start(origin: TurnTimingsJson['origin'], at: Date): TurnClock {
    return new TurnClock({ origin, originAt: at.toISOString() });
  }

  /** Continues the timings stored with a turn, or starts them at its creation for a turn from text. */
  static resume(stored: Record<string, unknown>, createdAt: Date): TurnClock {
    if (typeof stored['originAt'] === 'string' && typeof stored['origin'] === 'string') {
      return new TurnClock(stored as unknown as TurnTimingsJson);
    }
    return TurnClock.start('request', createdAt);
  }

  sinceOrigin(): number {
    return Math.max(0, Date.now() - this.originMs);
  }

  mark<K extends MarkName>(name: K, value = this.sinceOrigin()): number {
    this.json[name] = value;
    return value;
  }

  /** First time only (the first LLM token, the first TTS frame). */
  markOnce<K extends MarkName>(name: K): void {
    if (this.json[name] === undefined) this.mark(name);
  }

  llmRound(round: number, firstTokenMs: number, ms: number): void {
    (this.json.llmRounds ??= []).push({ round, firstTokenMs, ms });
  }

  toolRoundTrip(entry: { tool: string; callId?: string; verdict?: string; ms: number }): void {
    (this.json.toolRoundTrips ??= []).push(entry);
  }
}

type MarkName = {
  [K in keyof TurnTimingsJson]-?: TurnTimingsJson[K] extends number | undefined ? K : never;
}[keyof TurnTimingsJson];
