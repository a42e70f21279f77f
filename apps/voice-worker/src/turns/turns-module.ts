import type { MqttClient } from 'mqtt';
import { createDatabase, DeviceCatalogRepository, type Pool } from '@fleet/db';
import { CallRequests, PlatformEventBus } from '@fleet/platform-client';
import { closeQueueWorker, QueueClient, type Redis } from '@fleet/queues';
import type { StopStack } from '@fleet/runtime';
import type { Logger } from '@fleet/telemetry';
import { AnnouncementDeliveryRepository } from '../announcements/announcement-delivery.repository';
import { AnnouncementSpeaker } from '../announcements/announcement-speaker';
import type { VoiceWorkerConfig } from '../config';
import { TurnOwnershipRepository } from '../failover/turn-ownership.repository';
import { TurnReclaimer } from '../failover/turn-reclaimer';
import { TurnRescue } from '../failover/turn-rescue';
import { WorkerLivenessRepository } from '../failover/worker-liveness.repository';
import type { Providers } from '../providers/providers';
import { Aborts } from '../sessions/aborts';
import { DownlinkWriter } from '../sessions/downlink-writer';
import { SessionDirectory } from '../sessions/session-directory';
import type { VoiceMetrics } from '../voice-worker-metrics';
import { AudioTurns } from './audio-turns';
import { DeviceCalls } from './device-calls';
import { DeviceMessages } from './mqtt-device-messages';
import { ReplyPresenter } from './reply-presenter';
import { startTurnProcessor } from './turn-processor';
import { TurnRepository } from './turn-repository';
import { TurnService } from './turn-service';
import { VerdictRepository } from './verdict.repository';
import { VerdictWaiter } from './verdict-waiter';

export interface TurnsModule {
  audioTurns: AudioTurns;
  /** Announcements spoken in the sessions this worker owns (they share the replies' presenter). */
  announcements: AnnouncementSpeaker;
  directory: SessionDirectory;
  aborts: Aborts;
}

/** Voice turns: the `voice-turns` worker and what it needs (calls, verdicts, replies). */
export async function startTurns(deps: {
  config: VoiceWorkerConfig;
  pool: Pool;
  redis: Redis;
  connect: (name: string) => Redis;
  mqtt: MqttClient;
  providers: Providers;
  metrics: VoiceMetrics;
  logger: Logger;
  stack: StopStack;
}): Promise<TurnsModule> {
  const { config, pool, redis, providers, metrics, logger, stack } = deps;
  const db = createDatabase(pool);
  const verdicts = new VerdictWaiter(new VerdictRepository(db), deps.connect('verdicts'));
  await verdicts.start();
  const callRequests = new CallRequests(pool, redis, config.QUEUE_PREFIX);
  stack.push('call requests', () => callRequests.close());
  const calls = new DeviceCalls(callRequests, verdicts, {
    deliveryDeadlineMs: config.CALL_DELIVERY_DEADLINE_MS,
    replyTimeoutMs: config.CALL_REPLY_TIMEOUT_MS,
    verdictTimeoutMs: config.VERDICT_TIMEOUT_MS,
  });
  const aborts = new Aborts();
  const directory = new SessionDirectory(redis);
  const turns = new TurnRepository(db);
  const presenter = new ReplyPresenter(
    new DeviceMessages(deps.mqtt),
    new DownlinkWriter(redis),
    providers.tts,
    aborts,
  );
  const events = new PlatformEventBus(redis);
  const ownership = new TurnOwnershipRepository(db, config.WORKER_ID, config.WORKER_LIVENESS_TTL_MS);
  const rescue = new TurnRescue({ ownership, sessions: directory, presenter, events, metrics, logger });
  // Stopped after the turn worker (pushed before it): the heartbeat lasts while the last turns finish.
  const reclaimer = new TurnReclaimer(
    new WorkerLivenessRepository(db, config.WORKER_ID),
    ownership,
    rescue,
    {
      heartbeatMs: Math.max(100, Math.round(config.WORKER_LIVENESS_TTL_MS / 5)),
      sweepMs: Math.max(250, Math.round(config.WORKER_LIVENESS_TTL_MS / 2)),
      lostAfterMs: config.TURN_LOST_AFTER_MS,
    },
    logger,
  );
  await reclaimer.start(new Date());
  stack.push('turn reclaimer', () => reclaimer.stop());
  const service = new TurnService({
    turns,
    catalogs: new DeviceCatalogRepository(db),
    sessions: directory,
    llm: providers.llm,
    calls,
    presenter,
    ownership,
    rescue,
    events,
    metrics,
    logger,
    settings: { maxRounds: config.LLM_MAX_ROUNDS, vision: providers.vision !== undefined },
  });
  const turnJobs = deps.connect('turn jobs');
  const worker = startTurnProcessor(service, {
    connection: turnJobs,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.TURN_CONCURRENCY,
  });
  worker.on('failed', (job, err) => logger.error({ err, jobId: job?.id }, 'voice turn job failed'));
  stack.push('turn worker', () => closeQueueWorker(worker, turnJobs));
  const queue = new QueueClient('voice-turns', redis, config.QUEUE_PREFIX);
  stack.push('turn queue', () => queue.close());
  const audioTurns = new AudioTurns(
    turns,
    providers.asr,
    queue,
    metrics,
    logger,
    config.WORKER_ID,
    config.ASR_LANGUAGE,
  );
  const announcements = new AnnouncementSpeaker({
    deliveries: new AnnouncementDeliveryRepository(pool, config.WORKER_ID),
    presenter,
    wake: (callId, deviceId) => callRequests.wake(callId, deviceId),
    heardWithinMs: config.ANNOUNCE_HEARD_WITHIN_MS,
    logger,
  });
  return { audioTurns, directory, aborts, announcements };
}
