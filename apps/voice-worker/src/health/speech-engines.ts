import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { HealthCheck } from '@fleet/telemetry';
import type { VoiceWorkerConfig } from '../config';

/** An offline engine the configuration relies on: a program on the PATH or a model on disk, and its package. */
export interface SpeechEngine {
  stage: 'asr' | 'tts' | 'audio';
  /** What is missing when it is absent (a program name or a path). */
  needs: string;
  kind: 'program' | 'file';
  /** The Debian package that provides it. */
  debianPackage: string;
}

/**
 * What the configured providers need from the machine. sox resamples every TTS reply (any provider) and
 * pocketsphinx's input; pocketsphinx needs its en-us model too (README: the Debian packages).
 */
export function requiredEngines(c: VoiceWorkerConfig): SpeechEngine[] {
  const engines: SpeechEngine[] = [{ stage: 'audio', needs: 'sox', kind: 'program', debianPackage: 'sox' }];
  if (c.ASR_PROVIDER === 'pocketsphinx') {
    engines.push(
      { stage: 'asr', needs: 'pocketsphinx_continuous', kind: 'program', debianPackage: 'pocketsphinx' },
      { stage: 'asr', needs: c.POCKETSPHINX_HMM, kind: 'file', debianPackage: 'pocketsphinx-en-us' },
      { stage: 'asr', needs: c.POCKETSPHINX_DICT, kind: 'file', debianPackage: 'pocketsphinx-en-us' },
    );
  }
  if (c.TTS_PROVIDER === 'espeak') {
    engines.push({ stage: 'tts', needs: 'espeak-ng', kind: 'program', debianPackage: 'espeak-ng' });
  }
  return engines;
}

export function isPresent(engine: SpeechEngine, searchPath: string): boolean {
  if (engine.kind === 'file') return existsSync(engine.needs);
  return searchPath
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, engine.needs), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/**
 * `/healthz`'s `speech-engines` check: degraded (200, status `degraded`), not unhealthy, when one is missing.
 * The worker still answers text turns and still runs the stages whose engine is there, and restarting it
 * would not install a package; the report names what is missing and the package to install.
 */
export function speechEnginesHealthCheck(c: VoiceWorkerConfig): HealthCheck {
  const engines = requiredEngines(c);
  return {
    name: 'speech-engines',
    severity: 'degraded',
    hint: 'install the missing Debian packages: apt-get install -y espeak-ng sox pocketsphinx pocketsphinx-en-us',
    check() {
      const missing = engines.filter((e) => !isPresent(e, c.searchPath));
      if (missing.length === 0) return Promise.resolve();
      const what = missing.map((e) => `${e.stage}: ${e.needs} (Debian package ${e.debianPackage})`);
      return Promise.reject(new Error(`missing ${what.join('; ')}`));
    },
  };
}
