import type { IncomingMessage } from 'node:http';
import Fastify from 'fastify';
import { createDatabase, createPgPool, postgresHealthCheck } from '@fleet/db';
import { WebhookNotifier } from '@fleet/platform-client';
import { createRedis, publishControl, redisHealthCheck, watchRedis } from '@fleet/queues';
import { listenHttp, registerOpsRoutes, StopStack, type StopFunction } from '@fleet/runtime';
import { createMetricsRegistry, type Logger } from '@fleet/telemetry';
import { ActivationChallengesRepository } from './activation/activation-challenges.repository';
import { ActivationService } from './activation/activation-service';
import { ChallengeIssuer } from './activation/challenge-issuer';
import { ChallengeRateLimits } from './activation/challenge-rate-limits';
import { ProofBindingRepository } from './activation/proof-binding.repository';
import { SerialKeysRepository } from './activation/serial-keys.repository';
import { createBrokerMetrics } from './broker-metrics';
import { defaultLinkUrl, type BrokerConfig } from './config';
import { registerDeviceHttp } from './device-http/device-http-routes';
import { FirmwareImages } from './device-http/firmware-images';
import { OtaCheckInService } from './device-http/ota-check-in';
import { UpgradeRegressionRepository } from './devices/upgrade-regression-repository';
import { UpgradeRegressionWatch } from './devices/upgrade-regression-watch';
import { DeviceRepository } from './devices/device-repository';
import { createEdgeGuard } from './edge/create-edge-guard';
import { edgeHttpOptions } from './edge/edge-guard';
import { startListenAiLink } from './listenai-link/listenai-link';
import { closeAedes, createAedes } from './mqtt/aedes-factory';
import { Authenticator } from './mqtt/authenticate';
import { listenForControl } from './mqtt/control-listener';
import { installDeviceEdge } from './mqtt/device-edge';
import {
  boundPort,
  stopAccepting,
  listenerHealthCheck,
  listenMqttTcp,
  listenMqttTls,
  listenMqttWebSocket,
} from './mqtt/mqtt-listener';
import { PublishRateLimits } from './mqtt/rate-limits';
import { ServiceIdentities } from './mqtt/service-identities';
import { WillSweep } from './mqtt/will-sweep';
import { PresenceTracker } from './presence/presence-tracker';
import { PresenceWriter } from './presence/presence-writer';
import { ReplicaLiveness } from './presence/replica-liveness';
import { ReplicaLivenessRepository } from './presence/replica-liveness.repository';
import { DownlinkReader } from './voice-channel/downlink-reader';
import { UdpEndpoint } from './voice-channel/udp-endpoint';
import { VoiceChannel } from './voice-channel/voice-channel';

export interface BrokerHandle {
  ports: { mqtt: number; ws: number; tls?: number; http: number; udp: number; link: number };
  stop: StopFunction;
}

/** Composition root of the broker: wires its parts and returns how to stop them, in reverse order. */
export async function startBroker(config: BrokerConfig, logger: Logger): Promise<BrokerHandle> {
  const stack = new StopStack(logger);
  const startedAt = new Date();
  try {
    const registry = createMetricsRegistry('broker');
    const metrics = createBrokerMetrics(registry);
    const guard = createEdgeGuard(
      {
        pendingMax: config.EDGE_PENDING_MAX,
        pendingPerAddress: config.EDGE_PENDING_PER_ADDRESS,
        reservedFiles: config.EDGE_RESERVED_FILES,
      },
      metrics,
      logger,
    );
    const pool = createPgPool(config.DATABASE_URL, {
      max: 20,
      onError: (err) => logger.warn({ err }, 'postgres pool error'),
    });
    stack.push('postgres', () => pool.end());
    const redis = createRedis(config.REDIS_URL);
    watchRedis(redis, logger);
    stack.push('redis', () => Promise.resolve(redis.disconnect()));
    const blockingRedis = createRedis(config.REDIS_URL);
    blockingRedis.on('error', () => undefined); // the main connection reports outages
    stack.push('redis (blocking)', () => Promise.resolve(blockingRedis.disconnect()));

    const devices = new DeviceRepository(pool);
    const db = createDatabase(pool);
    const serialKeys = new SerialKeysRepository(db);
    const challenges = new ActivationChallengesRepository(db);
    // Stopped after aedes: closing aedes disconnects every device, and their offline rows must still be written.
    const presenceWriter = new PresenceWriter(pool, logger);
    stack.push('presence writes', () => presenceWriter.flush());
    const aedes = await createAedes({
      brokerId: config.BROKER_ID,
      ...(config.BROKER_CLUSTER ? { clusterRedisUrl: config.REDIS_URL } : {}),
      onError: (err, source) => {
        metrics.internalErrors.inc({ source });
        logger.error({ err, source }, 'broker internal error (the broker keeps running)');
      },
    });
    // Rows this replica left open in an earlier life are closed before any listener lets devices back in;
    // its heartbeat stops only after aedes has closed (pushed first, stopped last).
    const livenessRepository = new ReplicaLivenessRepository(createDatabase(pool), config.BROKER_ID);
    const liveness = new ReplicaLiveness(
      livenessRepository,
      aedes,
      metrics,
      logger,
      config.REPLICA_LIVENESS_TTL_MS,
    );
    stack.push('replica liveness', () => liveness.stop());
    stack.push('aedes', () => closeAedes(aedes));
    await liveness.start(startedAt);
    const wills = new WillSweep({
      aedes,
      brokerId: config.BROKER_ID,
      liveReplicas: () => livenessRepository.liveReplicaIds(config.REPLICA_LIVENESS_TTL_MS),
      metrics,
      logger,
    });
    stack.push('will sweep', () => wills.stop());
    await wills.start(config.REPLICA_LIVENESS_TTL_MS);

    const voiceSettings = {
      brokerId: config.BROKER_ID,
      publicUdpHost: config.PUBLIC_UDP_HOST,
      publicUdpPort: config.PUBLIC_UDP_PORT,
      downlink: {
        sampleRate: config.DOWNLINK_SAMPLE_RATE,
        channels: 1,
        frameDurationMs: config.FRAME_DURATION_MS,
      },
      idleMs: 120_000,
    };
    const voice = new VoiceChannel(aedes, redis, voiceSettings, metrics, logger);
    const udp = new UdpEndpoint(voice.sessions, metrics, (audio) => voice.uplink(audio), guard);
    const reader = new DownlinkReader(
      blockingRedis,
      redis,
      config.BROKER_ID,
      (id, entry) => voice.downlink(id, entry),
      logger,
    );
    voice.connect(udp, reader);

    const presence = new PresenceTracker(aedes, presenceWriter, metrics, logger, config.BROKER_ID);
    const edge = installDeviceEdge({
      aedes,
      authenticator: new Authenticator(
        config.deviceSigningKeys,
        new ServiceIdentities(config.serviceCredentials),
        devices,
      ),
      presence,
      rateLimits: new PublishRateLimits(config.DEVICE_MESSAGE_RATE),
      metrics,
      logger,
      voice,
      announceConnect: (notice) =>
        void publishControl(redis, {
          type: 'device.connected',
          deviceId: notice.mac,
          connectionId: notice.connectionId,
          brokerId: notice.brokerId,
          connectedAt: notice.connectedAt,
        }).catch((err: unknown) =>
          logger.warn(
            { err, mac: notice.mac },
            'other replicas not told of a connect (they keep an older one)',
          ),
        ),
    });
    const link = await startListenAiLink(
      {
        host: config.BIND_HOST,
        port: config.LINK_PORT,
        maxFrameBytes: config.LINK_MAX_FRAME_BYTES,
        pingSeconds: config.LINK_PING_S,
        handshakeMs: config.EDGE_HEADERS_TIMEOUT_MS,
        messageRate: config.DEVICE_MESSAGE_RATE,
        ...(config.TLS_CERT_FILE && config.TLS_KEY_FILE
          ? { tls: { certFile: config.TLS_CERT_FILE, keyFile: config.TLS_KEY_FILE } }
          : {}),
      },
      { aedes, pool, presence, metrics, registry, logger, guard },
    );
    stack.push('listenai link', () => link.stop());
    const linkPort = boundPort(link.server);
    const publicLinkUrl =
      config.LINK_PORT === 0
        ? defaultLinkUrl(config.PUBLIC_HOST, linkPort, !!config.TLS_CERT_FILE)
        : config.PUBLIC_LINK_URL;

    const control = await listenForControl(
      config.REDIS_URL,
      {
        // A device speaks one dialect, so an MQTT connection only ever takes over from another MQTT one.
        takeOver: (notice) => edge.takeOver(notice),
        disconnectDevice: (mac, reason) =>
          edge.disconnectDevice(mac, reason) + link.disconnectDevice(mac, reason),
        revokeLinkToken: (tokenId) => link.revokeToken(tokenId),
      },
      metrics,
      logger,
    );
    stack.push('control channel', () => control.close());

    const listenerOptions = (port: number) => ({
      host: config.BIND_HOST,
      port,
      maxPacketBytes: config.MAX_PACKET_BYTES,
      onOversized: (reason: string) => metrics.malformedInput.inc({ kind: `mqtt_${reason}` }),
      guard,
      connectMs: config.EDGE_CONNECT_TIMEOUT_MS,
    });
    // An accepted CONNECT (CONNACK sent, session restored) ends the connection's pending time.
    aedes.on('clientReady', (client) => guard.authenticated(client.conn));
    const mqttServer = await listenMqttTcp(aedes, listenerOptions(config.MQTT_PORT));
    stack.push('mqtt listener', () => stopAccepting(mqttServer));
    const wsServer = await listenMqttWebSocket(aedes, listenerOptions(config.MQTT_WS_PORT));
    stack.push('mqtt websocket listener', () => stopAccepting(wsServer));
    let tlsPort: number | undefined;
    if (config.TLS_CERT_FILE && config.TLS_KEY_FILE) {
      const tls = await listenMqttTls(aedes, {
        ...listenerOptions(config.MQTT_TLS_PORT),
        certFile: config.TLS_CERT_FILE,
        keyFile: config.TLS_KEY_FILE,
      });
      stack.push('mqtt tls listener', () => stopAccepting(tls));
      tlsPort = boundPort(tls);
    } else if (config.PUBLIC_MQTT_PORT === 8883) {
      logger.warn(
        'devices are told port 8883, which they always treat as TLS, but no certificate is configured',
      );
    }

    const udpPort = await udp.listen(config.BIND_HOST, config.UDP_PORT);
    stack.push('udp', () => udp.close());
    // Port 0 (tests, several replicas on one host) means "whatever the OS gave": tell devices that one.
    voiceSettings.publicUdpPort ||= udpPort;
    reader.start();
    stack.push('downlink reader', () => reader.stop());
    voice.start();
    stack.push('voice sessions', () => voice.stop());

    // The device HTTP: every connection under the edge's budget (devices present no credentials here), its
    // headers within EDGE_HEADERS_TIMEOUT_MS of the accept, Node's own limits as short.
    const httpLimits = edgeHttpOptions(config.EDGE_HEADERS_TIMEOUT_MS);
    const http = Fastify({
      logger: false,
      trustProxy: config.DEVICE_HTTP_TRUST_PROXY,
      http: httpLimits,
      requestTimeout: httpLimits.requestTimeout!,
      keepAliveTimeout: httpLimits.keepAliveTimeout!,
      clientErrorHandler: guard.clientErrorHandler('http'),
    });
    guard.watchHttp(http.server, 'http', config.EDGE_HEADERS_TIMEOUT_MS, { answerClientErrors: false });
    http.server.on('request', (request: IncomingMessage) => guard.handshakeDone(request.socket));
    registerOpsRoutes(http, {
      registry,
      checks: [
        postgresHealthCheck(pool),
        redisHealthCheck(redis),
        listenerHealthCheck('mqtt', mqttServer),
        listenerHealthCheck('listenai link', link.server),
      ],
    });
    const otaSettings = {
      publicHost: config.PUBLIC_HOST,
      publicMqttPort: config.PUBLIC_MQTT_PORT || boundPort(mqttServer),
      publicHttpUrl: config.PUBLIC_HTTP_URL,
      keepaliveSeconds: config.DEVICE_KEEPALIVE_S,
      timezoneOffsetMinutes: config.DEVICE_TIMEZONE_OFFSET_MIN,
      registrationOpen: config.REGISTRATION_OPEN,
      signingKey: config.deviceSigningKeys[0]!,
      activationMessage: 'Activate this device in the console',
    };
    const challengeIssuer = new ChallengeIssuer(
      challenges,
      new ChallengeRateLimits(
        redis,
        {
          perMacAndAddress: config.ACTIVATION_CHALLENGES_PER_MAC_ADDRESS_MIN,
          perAddress: config.ACTIVATION_CHALLENGES_PER_ADDRESS_MIN,
        },
        config.QUEUE_PREFIX,
      ),
      { ttlMs: 10 * 60_000, perMac: config.ACTIVATION_CHALLENGES_PER_MAC },
      (outcome, n = 1) => metrics.activationChallenges.inc({ outcome }, n),
    );
    const webhooks = new WebhookNotifier(pool, redis, config.QUEUE_PREFIX);
    stack.push('webhook queue', () => webhooks.close());
    const regressions = new UpgradeRegressionWatch(
      new UpgradeRegressionRepository(db),
      webhooks,
      logger,
      (outcome) => metrics.upgradeRegressionChecks.inc({ outcome }),
    );
    const checkIns = new OtaCheckInService(
      { devices, serialKeys, challenges: challengeIssuer, regressions },
      otaSettings,
    );
    const activation = new ActivationService(
      devices,
      challenges,
      serialKeys,
      new ProofBindingRepository(db),
      config.efuseWrappingKeys,
    );
    registerDeviceHttp(http, { checkIns, activation, firmware: new FirmwareImages(pool), metrics, logger });
    const httpPort = await listenHttp(http, config.BIND_HOST, config.HTTP_PORT);
    stack.push('http', () => http.close());
    if (config.HTTP_PORT === 0) otaSettings.publicHttpUrl = `http://${config.PUBLIC_HOST}:${httpPort}`;

    const ports = {
      mqtt: boundPort(mqttServer),
      ws: boundPort(wsServer),
      ...(tlsPort ? { tls: tlsPort } : {}),
      http: httpPort,
      udp: udpPort,
      link: linkPort,
    };
    logger.info(
      { ports, brokerId: config.BROKER_ID, cluster: config.BROKER_CLUSTER, publicLinkUrl },
      'broker listening',
    );
    return { ports, stop: stack.stopAll };
  } catch (err) {
    await stack.stopAll();
    throw err;
  }
}
