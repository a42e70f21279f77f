import Fastify from 'fastify';
import { sealSigner } from '@fleet/audit-export';
import { createDatabase, createPgPool, postgresHealthCheck, ToolProfileProposalsRepository } from '@fleet/db';
import { closeMqtt, connectServiceMqtt, mqttHealthCheck } from '@fleet/messaging';
import { CallRequests, PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import { createRedis, devicesInConversation, redisHealthCheck, watchRedis } from '@fleet/queues';
import { listenHttp, registerOpsRoutes, StopStack, type StopFunction } from '@fleet/runtime';
import { createMetricsRegistry, type Logger } from '@fleet/telemetry';
import { CampaignRepository } from './campaigns/campaign-repository';
import { AnnouncementCampaigns } from './campaigns/announcement-campaign';
import { AnnouncementCampaignRepository } from './campaigns/announcement-campaign.repository';
import { AnnouncementDeviceRate } from './campaigns/announcement-device-rate';
import { CampaignRunner } from './campaigns/campaign-runner';
import { PhaseRepository } from './campaigns/phase-repository';
import { PhaseRunner } from './campaigns/phase-runner';
import { BusyLock } from './calls/busy-lock';
import { CallRepository } from './calls/call-repository';
import { CallRunner } from './calls/call-runner';
import { CallSweeper } from './calls/call-sweeper';
import { CallWrites } from './calls/call-writes';
import type { OrchestratorConfig } from './config';
import { LeaseStore } from './coordination/lease-store';
import { PartitionManager } from './coordination/partition-manager';
import { PartitionTakeover } from './coordination/partition-takeover';
import { PartitionWakes } from './coordination/partition-wakes';
import { DeviceDirectory } from './devices/device-directory.repository';
import { DeviceRegistry } from './devices/device-registry';
import { PresenceHandler } from './devices/presence-handler';
import { CatalogRepository } from './discovery/catalog-repository';
import { DiscoveryService } from './discovery/discovery-service';
import { ReadbackProposals } from './discovery/readback-proposals';
import { ChainHeadRecorder } from './evidence/chain-head-recorder';
import { CommitQueue } from './evidence/commit-queue';
import { subscribeFleet } from './mcp/fleet-subscriber';
import { MalformedInputs } from './mcp/malformed-inputs';
import { McpLink } from './mcp/mcp-link';
import { UnownedReplies } from './mcp/unowned-replies';
import { AnnouncementRunner } from './announcements/announcement-runner';
import { AnnouncementRepository } from './announcements/announcement.repository';
import { RpcIds } from './mcp/rpc-ids';
import { createOrchestratorMetrics, registerQueueDepth } from './orchestrator-metrics';

export interface OrchestratorHandle {
  ports: { http: number };
  partitions: PartitionManager;
  /** What this replica knows of its devices (presence, catalog), as its calls see it. */
  devices: DeviceRegistry;
  stop: StopFunction;
}

/** Composition root of the orchestrator. */
export async function startOrchestrator(
  config: OrchestratorConfig,
  logger: Logger,
): Promise<OrchestratorHandle> {
  const stack = new StopStack(logger);
  try {
    const registry = createMetricsRegistry('orchestrator');
    const metrics = createOrchestratorMetrics(registry);
    const pool = createPgPool(config.DATABASE_URL, {
      max: 20,
      onError: (err) => logger.warn({ err }, 'postgres pool error'),
    });
    stack.push('postgres', () => pool.end());
    const redis = createRedis(config.REDIS_URL);
    watchRedis(redis, logger);
    stack.push('redis', () => Promise.resolve(redis.disconnect()));
    const mqtt = connectServiceMqtt({
      url: config.MQTT_URL,
      username: 'orchestrator',
      password: config.mqttPassword,
      clientId: `orchestrator-${config.REPLICA_ID}`,
      logger,
    });
    stack.push('mqtt', () => closeMqtt(mqtt));

    // Leases renew on connections of their own: queued behind a saturated pipeline's queries (a fleet-wide call
    // or a discovery storm fills all 20), a renewal missed its TTL and the replica dropped its own partitions,
    // abandoning every call in flight (the fleet-calls benchmark found it, docs/BENCHMARKS.md §2).
    const leasePool = createPgPool(config.DATABASE_URL, {
      max: 2,
      onError: (err) => logger.warn({ err }, 'postgres lease pool error'),
    });
    stack.push('postgres (leases)', () => leasePool.end());
    const leases = new LeaseStore(leasePool, config.REPLICA_ID, config.LEASE_TTL_MS);
    const partitions = new PartitionManager(leases, config.LEASE_RENEW_MS, logger);
    const devices = new DeviceRegistry((p) => partitions.leaseOf(p) !== undefined);
    const seals = sealSigner(config.sealSigningKey, config.SEAL_KEY_NAME);
    logger.info(
      { sealKey: seals.verifierKey },
      'seals are signed with this key (list it in SEAL_PUBLIC_KEYS)',
    );
    const commits = new CommitQueue(pool, config.REPLICA_ID, (p) => partitions.leaseOf(p), {
      maxConcurrentBatches: 4,
      maxBatchSize: 200,
      latency: metrics.evidenceCommit,
      signSeal: seals.sign,
    });
    const events = new PlatformEventBus(redis);
    const webhooks = new WebhookNotifier(pool, redis, config.QUEUE_PREFIX);
    stack.push('webhook queue', () => webhooks.close());
    const callRequests = new CallRequests(pool, redis, config.QUEUE_PREFIX);
    stack.push('call queues', () => callRequests.close());
    const rpcIds = new RpcIds(pool);
    const malformed = new MalformedInputs(pool, logger);
    stack.push('malformed inputs', () => malformed.flush());
    // A stray reply can show a connection whose presence event this replica missed (see PresenceHandler).
    let onStray: (mac: string, connectionId: string) => void = () => undefined;
    // Replies of partitions this replica does not own, kept for a takeover (DESIGN §7): a lease's lapse plus the
    // takeover's own reload of the partition's devices, which takes seconds for thousands of them.
    const unowned = new UnownedReplies(Math.max(30_000, 3 * config.LEASE_TTL_MS));
    const link = new McpLink(
      mqtt,
      rpcIds,
      malformed,
      metrics,
      logger,
      (mac, id) => onStray(mac, id),
      unowned,
    );
    const catalogs = new CatalogRepository(pool, config.DERIVED_RULE_MAX_AGE_MS);
    const proposals = new ReadbackProposals(new ToolProfileProposalsRepository(createDatabase(pool)));
    const discovery = new DiscoveryService(
      link,
      catalogs,
      commits,
      events,
      config,
      metrics,
      logger,
      proposals,
    );
    const calls = new CallRepository(pool);
    registerQueueDepth(registry, () => calls.pendingByState(partitions.ownedPartitions()));
    // The sweep is built once partitions are owned; a call that begins to wait before then is found by its first
    // round.
    const sweep = { dueBy: (_at: Date): void => undefined };
    const writes = new CallWrites(commits, {
      onSealed: (call, conclusion) => {
        metrics.calls.inc({ verdict: conclusion.verdict, tool: call.tool, origin: call.origin });
        // Inside the call's trace: the line carries its trace id.
        logger.debug({ callId: call.id, tool: call.tool, verdict: conclusion.verdict }, 'call sealed');
        metrics.callLatency.observe(
          { verdict: conclusion.verdict },
          (Date.now() - call.createdAt.getTime()) / 1000,
        );
      },
      onWaiting: (dueAt) => sweep.dueBy(dueAt),
    });
    const announcements = new AnnouncementRunner({
      writes,
      announcements: new AnnouncementRepository(pool),
      approvals: calls,
      mqtt,
      publish: (event) => events.publish(event),
      logger,
      playbackMaxMs: config.ANNOUNCE_PLAYBACK_MAX_MS,
    });
    // Held calls are woken through the runner, built next.
    const busyLock = new BusyLock({
      db: calls.db,
      inConversation: (ids) => devicesInConversation(redis, ids),
      wake: (callId, deviceId) => runner.schedule(callId, deviceId),
      logger,
      everyMs: config.BUSY_RECHECK_MS,
      registry,
    });
    busyLock.start();
    stack.push('busy lock', () => Promise.resolve(busyLock.stop()));
    const runner = new CallRunner({
      config,
      busyLock,
      devices,
      calls,
      writes,
      link,
      mqtt,
      events,
      webhooks,
      announcements,
      logger,
    });
    const presence = new PresenceHandler(
      devices,
      new DeviceDirectory(pool),
      discovery,
      calls,
      runner,
      events,
      webhooks,
      { count: 50, windowMs: 60_000 },
      logger,
    );
    // Wake-ups are read on a connection of their own: a blocked read holds it.
    const wakeReader = createRedis(config.REDIS_URL);
    watchRedis(wakeReader, logger);
    stack.push('redis (wake-ups)', () => Promise.resolve(wakeReader.disconnect()));
    const wakes = new PartitionWakes({
      blocking: wakeReader,
      commands: redis,
      prefix: config.QUEUE_PREFIX,
      replicaId: config.REPLICA_ID,
      deliver: (partition, wake) => takeover.wake(partition, wake),
      logger,
    });
    wakes.start();
    stack.push('wake-ups', () => wakes.stop());
    const takeover = new PartitionTakeover({
      devices,
      directory: new DeviceDirectory(pool),
      catalogs,
      calls,
      runner,
      presence,
      commits,
      rpcIds,
      wakes,
      logger,
    });

    onStray = (mac, connectionId) =>
      void presence
        .checkConnection(mac, connectionId)
        .catch((err: unknown) => logger.warn({ err, mac }, 'cannot check a stray reply against presence'));
    // Presence and replies flow (once the broker answers) before partitions are taken.
    await subscribeFleet(
      mqtt,
      devices,
      link,
      (event) => presence.handle(event),
      metrics,
      () => presence.resyncAfterReconnect(),
      unowned,
    );
    await partitions.start(takeover);
    stack.push('partitions', async () => {
      await takeover.closeAll();
      await partitions.stop();
    });
    const sweeper = new CallSweeper(
      calls,
      runner,
      devices,
      presence,
      () => partitions.ownedPartitions(),
      metrics,
      logger,
      config.SWEEP_INTERVAL_MS,
      config.SWEEP_IDLE_MS,
    );
    sweep.dueBy = (at) => sweeper.dueBy(at);
    sweeper.start();
    stack.push('sweeper', () => Promise.resolve(sweeper.stop()));
    const phaseRepository = new PhaseRepository(pool);
    const campaignRepository = new CampaignRepository(pool);
    const phaseRunner = new PhaseRunner({
      phases: phaseRepository,
      events,
      webhooks,
      versionOf: async (action) =>
        action.kind === 'firmware'
          ? ((await campaignRepository.firmware(action.firmwareId))?.version ?? '')
          : '',
    });
    const campaigns = new CampaignRunner(
      {
        campaigns: campaignRepository,
        leases,
        calls: callRequests,
        events,
        webhooks,
        inVoiceSession: async (deviceId) => (await devicesInConversation(redis, [deviceId])).has(deviceId),
        firmwareBaseUrl: config.FIRMWARE_BASE_URL,
        announcements: new AnnouncementCampaigns(
          new AnnouncementCampaignRepository(pool),
          new AnnouncementDeviceRate(
            redis,
            config.QUEUE_PREFIX,
            config.ANNOUNCE_RATE_PER_DEVICE,
            config.ANNOUNCE_RATE_WINDOW_S,
          ),
        ),
        logger,
        phases: phaseRunner,
        dispatchCap: {
          perMinute: config.CAMPAIGN_DISPATCHES_PER_MINUTE,
          dispatchedLastMinute: () => phaseRepository.dispatchedLastMinute(),
        },
      },
      config.CAMPAIGN_TICK_MS,
    );
    campaigns.start();
    stack.push('campaigns', () => campaigns.stop());
    const heads = new ChainHeadRecorder(pool, () => partitions.ownedPartitions(), logger);
    heads.start();
    stack.push('chain heads', () => heads.stop());

    const http = Fastify({ logger: false });
    registerOpsRoutes(http, {
      registry,
      checks: [postgresHealthCheck(pool), redisHealthCheck(redis), mqttHealthCheck(mqtt)],
    });
    const httpPort = await listenHttp(http, config.BIND_HOST, config.HTTP_PORT);
    stack.push('http', () => http.close());
    logger.info(
      {
        ports: { http: httpPort },
        replica: config.REPLICA_ID,
        partitions: partitions.ownedPartitions().length,
      },
      'orchestrator listening',
    );
    return { ports: { http: httpPort }, partitions, devices, stop: stack.stopAll };
  } catch (err) {
    await stack.stopAll();
    throw err;
  }
}
