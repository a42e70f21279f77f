import { hostname } from 'node:os';
import { z } from 'zod';
import {
  commonEnv,
  ConfigError,
  databaseEnv,
  envInt,
  envPort,
  loadConfig,
  redisEnv,
  resolveServicePassword,
  serviceMqttEnv,
  tracingEnv,
} from '@fleet/config';

const optionalUrl = z.url().optional();
const POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';

// The only place the voice-worker reads process.env. Each provider is chosen here; the offline ones (intent engine,
// pocketsphinx, espeak-ng) need nothing but Debian packages, the `openai` ones any OpenAI-compatible server.
const schema = z.object({
  ...commonEnv,
  ...databaseEnv,
  ...redisEnv,
  ...serviceMqttEnv,
  ...tracingEnv,
  BIND_HOST: z.string().default('0.0.0.0'),
  HTTP_PORT: envPort(8083),
  WORKER_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .default(`${hostname()}-${process.pid}`),
  /** Voice turns this worker runs at once (the LLM and the device calls are mostly waiting). */
  TURN_CONCURRENCY: envInt(8, { min: 1, max: 1000 }),
  /**
   * A worker whose heartbeat is older than this is gone: another answers its open turns with an apology
   * (it beats every fifth of this).
   */
  WORKER_LIVENESS_TTL_MS: envInt(10_000, { min: 500, max: 600_000 }),
  /** A turn whose job no worker took for this long was lost (a Redis restart): it is answered with an apology. */
  TURN_LOST_AFTER_MS: envInt(60_000, { min: 1_000 }),

  ASR_PROVIDER: z.enum(['pocketsphinx', 'openai']).default('pocketsphinx'),
  ASR_URL: optionalUrl,
  ASR_API_KEY: z.string().optional(),
  ASR_MODEL: z.string().default('whisper-1'),
  ASR_LANGUAGE: z.string().optional(),
  POCKETSPHINX_HMM: z.string().default(`${POCKETSPHINX_MODEL}/en-us`),
  POCKETSPHINX_DICT: z.string().default(`${POCKETSPHINX_MODEL}/cmudict-en-us.dict`),

  LLM_PROVIDER: z.enum(['intent', 'openai']).default('intent'),
  LLM_URL: optionalUrl,
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  /** Tool-calling rounds per turn: a refusal goes back to the LLM, but not forever. */
  LLM_MAX_ROUNDS: envInt(4, { min: 1, max: 10 }),
  LLM_TIMEOUT_MS: envInt(20_000, { min: 500 }),

  TTS_PROVIDER: z.enum(['espeak', 'openai']).default('espeak'),
  TTS_URL: optionalUrl,
  TTS_API_KEY: z.string().optional(),
  TTS_MODEL: z.string().default('tts-1'),
  TTS_VOICE: z.string().default('alloy'),

  /** The vision model that explains `self.camera.take_photo`'s photos; unset hides the tool from the LLM. */
  VISION_MODEL_URL: optionalUrl,
  VISION_API_KEY: z.string().optional(),
  VISION_MODEL: z.string().default('gpt-4o-mini'),
  /** What devices present (the orchestrator's VISION_TOKEN); unset accepts any photo post. */
  VISION_TOKEN: z.string().optional(),

  /** Silence that ends an utterance in `auto`/`realtime` listening. */
  VAD_SILENCE_MS: envInt(600, { min: 120, max: 5_000 }),
  VAD_MAX_UTTERANCE_MS: envInt(15_000, { min: 1_000, max: 60_000 }),
  /** RMS (16-bit scale) under which a frame never counts as speech, whatever the noise floor. */
  VAD_MIN_RMS: envInt(400, { min: 1, max: 30_000 }),

  /** A voice call is now or never: sent within this, answered within CALL_REPLY_TIMEOUT_MS. */
  CALL_DELIVERY_DEADLINE_MS: envInt(8_000, { min: 1_000 }),
  CALL_REPLY_TIMEOUT_MS: envInt(5_000, { min: 100 }),
  /** How long a turn waits for a call's verdict before it says it has no answer yet. */
  VERDICT_TIMEOUT_MS: envInt(20_000, { min: 500 }),
  /** After an announcement's `tts stop`: how long the device may take to say `listen start` or go idle. */
  ANNOUNCE_HEARD_WITHIN_MS: envInt(5_000, { min: 100, max: 60_000 }),
});

type Raw = z.infer<typeof schema>;

export type VoiceWorkerConfig = Omit<Raw, 'MQTT_PASSWORD'> & {
  mqttPassword: string;
  /** Where the offline engines are looked for (the PATH the worker runs them from). */
  searchPath: string;
};

export function loadVoiceWorkerConfig(env: NodeJS.ProcessEnv = process.env): VoiceWorkerConfig {
  const { MQTT_PASSWORD, ...raw } = loadConfig(schema, env);
  requireUrl(raw, 'ASR_PROVIDER', 'ASR_URL');
  requireUrl(raw, 'LLM_PROVIDER', 'LLM_URL');
  requireUrl(raw, 'TTS_PROVIDER', 'TTS_URL');
  return {
    ...raw,
    mqttPassword: resolveServicePassword('voice-worker', MQTT_PASSWORD, raw.NODE_ENV),
    searchPath: env['PATH'] ?? process.env['PATH'] ?? '',
  };
}

function requireUrl(
  raw: Omit<Raw, 'MQTT_PASSWORD'>,
  provider: 'ASR_PROVIDER' | 'LLM_PROVIDER' | 'TTS_PROVIDER',
  url: 'ASR_URL' | 'LLM_URL' | 'TTS_URL',
): void {
  if (raw[provider] === 'openai' && !raw[url]) {
    throw new ConfigError([{ variable: url, message: `required when ${provider}=openai` }]);
  }
}
