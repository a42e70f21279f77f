import { Counter, Gauge, Histogram, type Registry } from '@fleet/telemetry';

export type VoiceMetrics = ReturnType<typeof createVoiceMetrics>;

export function createVoiceMetrics(registry: Registry) {
  const registers = [registry];
  return {
    /** Each stage's own duration (not the time since the turn began). */
    stageSeconds: new Histogram({
      name: 'voice_stage_seconds',
      help: 'Duration of a voice turn stage: speech_end (VAD hangover), asr, llm_first_token, tool_round_trip, first_tts_audio (reply ready to first frame), turn (origin to reply sent)',
      labelNames: ['stage'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32],
      registers,
    }),
    turns: new Counter({
      name: 'voice_turns_total',
      help: 'Voice turns by outcome (failed, answered, or the verdict of the last action), source and reply mode',
      labelNames: ['outcome', 'source', 'mode'],
      registers,
    }),
    sessions: new Gauge({
      name: 'voice_sessions_owned',
      help: 'Voice sessions whose uplink this worker listens to',
      registers,
    }),
    rescuedTurns: new Counter({
      name: 'voice_turns_rescued_total',
      help: 'Voice turns answered with an apology because their worker stopped mid-turn (worker_lost) or their job was lost before any worker took it (job_lost)',
      labelNames: ['why'],
      registers,
    }),
    utterances: new Counter({
      name: 'voice_utterances_total',
      help: 'Utterances the VAD cut from session audio, by how they ended (silence, forced, listen_stop)',
      labelNames: ['end'],
      registers,
    }),
  };
}
