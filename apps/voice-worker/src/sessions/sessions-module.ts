import type { MqttClient } from 'mqtt';
import type { ReaderHealth, Redis, UplinkFrame } from '@fleet/queues';
import type { StopStack } from '@fleet/runtime';
import type { Logger } from '@fleet/telemetry';
import type { VoiceWorkerConfig } from '../config';
import type { TurnsModule } from '../turns/turns-module';
import type { VoiceMetrics } from '../voice-worker-metrics';
import { subscribeListenEvents } from './listen-events';
import { SessionEventsReader, type SessionEventHandlers } from './session-events';
import { SessionReclaimer } from './session-reclaimer';
import { SessionSupervisor } from './session-supervisor';
import { UplinkReader } from './uplink-reader';

/** The audio path: own sessions from `voice:sessions`, read their uplink, cut utterances, start audio turns. */
export async function startSessions(deps: {
  config: VoiceWorkerConfig;
  redis: Redis;
  connect: (name: string) => Redis;
  mqtt: MqttClient;
  metrics: VoiceMetrics;
  logger: Logger;
  stack: StopStack;
  turns: TurnsModule;
  /** Where the stream readers report, for `/healthz`. */
  readers: ReaderHealth;
}): Promise<void> {
  const { config, redis, logger, stack, turns } = deps;
  // The reader delivers to the supervisor, which tells the reader what to watch: wired in two steps.
  let deliver: (sessionId: string, frame: UplinkFrame) => void = () => undefined;
  const reader = new UplinkReader(
    deps.connect('uplink'),
    redis,
    config.WORKER_ID,
    (sessionId, frame) => deliver(sessionId, frame),
    logger,
    deps.readers,
  );
  const owner = new SessionSupervisor({
    redis,
    reader,
    directory: turns.directory,
    aborts: turns.aborts,
    vad: {
      silenceMs: config.VAD_SILENCE_MS,
      maxUtteranceMs: config.VAD_MAX_UTTERANCE_MS,
      minRms: config.VAD_MIN_RMS,
    },
    metrics: deps.metrics,
    logger,
    onUtterance: (session, utterance) => turns.audioTurns.start(session, utterance),
  });
  deliver = (sessionId, frame) => owner.frame(sessionId, frame);
  subscribeListenEvents(
    deps.mqtt,
    (mac, signal) => {
      owner.signal(mac, signal);
      turns.announcements.signal(signal);
    },
    logger,
  );
  // The sessions this worker owns are where its announcements are spoken (xiaozhi §2.2).
  const handlers: SessionEventHandlers = {
    async opened(event, entryId) {
      await owner.opened(event, entryId);
      turns.announcements.opened({ sessionId: event.sessionId, mac: event.mac, downlink: event.downlink });
    },
    async closed(event) {
      turns.announcements.closed(event.sessionId);
      await owner.closed(event);
    },
  };
  reader.start();
  owner.start();
  stack.push('uplink', async () => {
    owner.stop();
    await reader.stop();
  });
  const events = new SessionEventsReader(
    deps.connect('session group'),
    deps.connect('session tail'),
    config.WORKER_ID,
    handlers,
    logger,
    deps.readers,
  );
  await events.start();
  stack.push('session events', () => events.stop());
  const reclaimer = new SessionReclaimer(
    redis,
    config.WORKER_ID,
    () => owner.ownedEntries(),
    turns.directory,
    handlers,
    logger,
  );
  reclaimer.start();
  stack.push('session reclaimer', () => reclaimer.stop());
}
