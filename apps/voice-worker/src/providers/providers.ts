import type { VoiceWorkerConfig } from '../config';
import type { AsrProvider } from './asr/asr-provider';
import { OpenAiAsr } from './asr/openai-asr';
import { PocketsphinxAsr } from './asr/pocketsphinx-asr';
import type { LlmProvider } from './llm/llm-provider';
import { IntentLlm } from './llm/intent-llm';
import { OpenAiChat } from './llm/openai-chat';
import type { TtsProvider } from './tts/tts-provider';
import { EspeakTts } from './tts/espeak-tts';
import { OpenAiTts } from './tts/openai-tts';
import type { VisionProvider } from './vision/vision-provider';
import { OpenAiVision } from './vision/openai-vision';

export interface Providers {
  asr: AsrProvider;
  llm: LlmProvider;
  tts: TtsProvider;
  /** Undefined: no vision model, so the photo tool is hidden from the LLM. */
  vision: VisionProvider | undefined;
  dispose(): void;
}

const SPEECH_TIMEOUT_MS = 20_000;

/** Each provider as configured (config.ts checked that an `openai` one has its URL). */
export function createProviders(c: VoiceWorkerConfig): Providers {
  const asr =
    c.ASR_PROVIDER === 'openai'
      ? new OpenAiAsr(
          { url: c.ASR_URL!, apiKey: c.ASR_API_KEY, model: c.ASR_MODEL, timeoutMs: SPEECH_TIMEOUT_MS },
          c.ASR_LANGUAGE,
        )
      : new PocketsphinxAsr({ hmm: c.POCKETSPHINX_HMM, dict: c.POCKETSPHINX_DICT });
  const llm =
    c.LLM_PROVIDER === 'openai'
      ? new OpenAiChat({
          url: c.LLM_URL!,
          apiKey: c.LLM_API_KEY,
          model: c.LLM_MODEL,
          timeoutMs: c.LLM_TIMEOUT_MS,
        })
      : new IntentLlm();
  const tts =
    c.TTS_PROVIDER === 'openai'
      ? new OpenAiTts(
          { url: c.TTS_URL!, apiKey: c.TTS_API_KEY, model: c.TTS_MODEL, timeoutMs: SPEECH_TIMEOUT_MS },
          c.TTS_VOICE,
        )
      : new EspeakTts();
  const vision = c.VISION_MODEL_URL
    ? new OpenAiVision({
        url: c.VISION_MODEL_URL,
        apiKey: c.VISION_API_KEY,
        model: c.VISION_MODEL,
        timeoutMs: c.LLM_TIMEOUT_MS,
      })
    : undefined;
  return {
    asr,
    llm,
    tts,
    vision,
    dispose: () => {
      if (asr instanceof PocketsphinxAsr) asr.dispose();
    },
  };
}
