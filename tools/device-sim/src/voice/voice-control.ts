import { deviceMessage, type ListenMode } from '@fleet/protocol';
import type { DeviceHost } from '../device/device-host';
import { PoweredOff } from '../device/main-task';
import type { Runtime } from '../device/runtime';

export interface VoiceSessionOptions {
  /** Default: `realtime` with server AEC, else `auto` (xiaozhi §2.1). */
  readonly mode?: ListenMode;
  /** Opened by a wake word: `listen detect` with this text goes out before `listen start`. */
  readonly wakeWord?: string;
}

/** Runs `job` on the main task and settles when it did (or rejects if the device loses power first). */
function onMainTask<T>(rt: Runtime, job: () => Promise<T> | T): Promise<T> {
  return new Promise((resolve, reject) => {
    const forget = rt.onDispose(() => reject(new PoweredOff()));
    rt.mainTask.schedule(async () => {
      try {
        resolve(await job());
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      } finally {
        forget();
      }
    });
  });
}

/**
 * A wake word or a button (xiaozhi §2.1): open the channel if it is not open (hello, up to 10 s for the server
 * hello, UDP), then `listen detect` for a wake word and `listen start`. Resolves with the session id.
 */
export function openVoiceSession(
  host: DeviceHost,
  rt: Runtime,
  options: VoiceSessionOptions,
): Promise<string> {
  const mode = options.mode ?? (host.config.voice.serverAec ? 'realtime' : 'auto');
  return onMainTask(rt, async () => {
    const channel = rt.channel;
    if (!channel.isOpen()) {
      rt.setState('connecting');
      if (!(await channel.open())) {
        rt.setState('idle');
        throw new Error('the audio channel did not open (no valid server hello in time, or no MQTT)');
      }
    }
    if (options.wakeWord !== undefined)
      rt.mqtt?.sendText(deviceMessage.listenDetect(channel.sessionId, options.wakeWord));
    rt.listeningMode = mode;
    rt.setState('listening');
    rt.mqtt?.sendText(deviceMessage.listenStart(channel.sessionId, mode));
    return channel.sessionId;
  });
}

/** `tts start`: speaking, from idle or listening. */
export function onTtsStart(rt: Runtime): void {
  if (rt.state === 'idle' || rt.state === 'listening') rt.setState('speaking');
}

/**
 * `tts stop` while speaking: manual → idle; else listening, and auto mode says `listen start` again, held back
 * until local playback has drained (xiaozhi §2.1): the device keeps speaking what it still has queued.
 */
export function onTtsStop(host: DeviceHost, rt: Runtime): void {
  if (rt.state !== 'speaking') return;
  if (rt.listeningMode === 'manual') return rt.setState('idle');
  const draining = rt.listeningMode === 'auto' && rt.hasChannel ? rt.channel.playback.remainingMs() : 0;
  if (draining > 0) {
    rt.after(draining, () => rt.mainTask.schedule(() => onTtsStop(host, rt)));
    return;
  }
  rt.setState('listening');
  if (rt.listeningMode === 'auto') rt.mqtt?.sendText(deviceMessage.listenStart(rt.channel.sessionId, 'auto'));
}

/** StopListening (push-to-talk released): `listen stop`, idle, the channel stays open. */
export function stopListening(rt: Runtime): Promise<void> {
  return onMainTask(rt, () => {
    if (rt.state !== 'listening') return;
    rt.mqtt?.sendText(deviceMessage.listenStop(rt.channel.sessionId));
    rt.setState('idle');
  });
}

/** AbortSpeaking: a button (no reason) or a wake word while speaking. */
export function abortSpeaking(rt: Runtime, reason?: 'wake_word_detected'): Promise<void> {
  return onMainTask(rt, () => {
    rt.mqtt?.sendText(deviceMessage.abort(rt.channel.sessionId, reason));
  });
}

/** The user ends the conversation: UDP closes and a goodbye goes out (xiaozhi §1.5). */
export function closeVoiceSession(rt: Runtime): Promise<void> {
  return onMainTask(rt, () => {
    if (rt.hasChannel && rt.channel.hasUdp) rt.channel.close(true);
  });
}
