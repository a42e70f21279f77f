import type { Aedes, Client, PublishPacket, Subscription } from 'aedes';
import { deviceP2pTopic, redactMqttClientId } from '@fleet/protocol';
import type { Logger } from '@fleet/telemetry';
import type { BrokerMetrics } from '../broker-metrics';
import type { CloseReason, PresenceTracker } from '../presence/presence-tracker';
import { decidePublish, decideSubscribe } from './access-control';
import type { Authenticator } from './authenticate';
import { parserOf, slimParser } from './slim-parser';
import { internals, isClosingWill, pendingWillOf } from './aedes-internals';
import { identityOf, setIdentity, type ClientIdentity } from './client-identity';
import type { PublishRateLimits } from './rate-limits';
import { wrapUplink } from './uplink-wrapper';

type DeviceIdentity = Extract<ClientIdentity, { kind: 'device' }>;

/** What the voice channel wants to hear from the MQTT side. */
export interface DeviceVoiceHooks {
  deviceMessage(identity: DeviceIdentity, type: string, raw: Buffer): void;
  deviceGone(identity: DeviceIdentity): void;
}

export interface DeviceEdgeDeps {
  aedes: Aedes;
  authenticator: Authenticator;
  presence: PresenceTracker;
  rateLimits: PublishRateLimits;
  metrics: BrokerMetrics;
  logger: Logger;
  voice?: DeviceVoiceHooks;
  /** Tells the other replicas a device connected here, so they close their older connections of it. */
  announceConnect?: (notice: ConnectNotice) => void;
}

/** A device's authenticated CONNECT, as the replicas tell each other (fleet:control `device.connected`). */
export interface ConnectNotice {
  mac: string;
  connectionId: string;
  brokerId: string;
  connectedAt: number;
}

// What aedes' write says when the client's connection is gone (lib/write.js, lib/client.js).
const CONNECTION_CLOSED = 'connection closed';
// Subscriptions the broker makes for a device pass through authorizeSubscribe like the device's own;
// this mark tells them apart (a device could never put a Symbol on the wire).
const BROKER_OWN = Symbol('broker-own-subscription');
type MarkedSubscription = Subscription & { [BROKER_OWN]?: true };

/**
 * The MQTT rules of the device edge (DESIGN §3), installed as aedes hooks: authenticate before CONNACK,
 * rights by identity and message type, a device's uplink wrapped on its own fleet topic, the p2p subscription
 * made for the device, presence with a reason for every close.
 */
export interface DeviceEdge {
  /** Closes this replica's connections of a device (revoked, decommissioned); returns how many it closed. */
  disconnectDevice(mac: string, reason: 'revoked' | 'decommissioned'): number;
  /** Another replica accepted a CONNECT of a device: an older connection of it here is closed (true if one was). */
  takeOver(notice: ConnectNotice): boolean;
}

export function installDeviceEdge(deps: DeviceEdgeDeps): DeviceEdge {
  const { aedes, authenticator, presence, rateLimits, metrics, logger, voice } = deps;
  const keepalives = new WeakMap<Client, number>();
  const online = new WeakSet<Client>();
  const closeReasons = new WeakMap<Client, CloseReason>();
  const reportedClosed = new WeakSet<Client>();
  // DESIGN §3: one live connection per device. aedes only replaces a connection with the same client id; two
  // client ids of one MAC (another board name in GID_) would both stay open and both receive every downlink.
  const liveByMac = new Map<string, Client>();

  function takeOverLocally(mac: string, newer: Client | undefined, scope: 'local' | 'remote'): boolean {
    const older = liveByMac.get(mac);
    if (!older || older === newer) return false;
    liveByMac.delete(mac);
    // A connection that closed before aedes registered it never gets a clientDisconnect: nothing to take over.
    if (older.closed) return false;
    closeReasons.set(older, 'takeover');
    metrics.takeovers.inc({ scope });
    logger.info({ mac, scope, client: redactMqttClientId(older.id) }, 'a newer connection took over');
    older.close();
    return true;
  }

  aedes.preConnect = (client, packet, done) => {
    keepalives.set(client, packet.keepalive ?? 0);
    done(null, true);
  };

  aedes.authenticate = (client, username, password, done) => {
    authenticator
      .authenticate({
        clientId: client.id,
        username,
        password,
        keepalive: keepalives.get(client) ?? 0,
        remoteAddress: remoteAddressOf(client),
      })
      .then((result) => {
        if (!result.ok) {
          metrics.authFailures.inc({ reason: result.reason });
          logger.info(
            { client: redactMqttClientId(client.id), reason: result.reason, remote: remoteAddressOf(client) },
            'connection refused',
          );
          return done(Object.assign(new Error(result.reason), { returnCode: result.returnCode }), false);
        }
        setIdentity(client, result.identity);
        const previous = internals(aedes).clients[client.id];
        if (previous && previous !== client) closeReasons.set(previous, 'takeover'); // [MQTT-3.1.4-2]
        metrics.connects.inc({ kind: result.identity.kind });
        if (result.identity.kind === 'device') {
          const identity = result.identity;
          // Stored with the will: should this broker die, whoever publishes the will binds it to this connection.
          const will = pendingWillOf(client);
          if (will) will['fleetConnectionId'] = identity.connectionId;
          takeOverLocally(identity.mac, client, 'local');
          liveByMac.set(identity.mac, client);
          deps.announceConnect?.({
            mac: identity.mac,
            connectionId: identity.connectionId,
            brokerId: aedes.id,
            connectedAt: identity.connectedAt,
          });
          presence.connected(identity);
        } else metrics.connectedServices.inc();
        done(null, true);
      })
      .catch((err: unknown) => {
        // The registry could not be read (Postgres down): refuse now, the device retries by itself.
        metrics.authFailures.inc({ reason: 'registry_unavailable' });
        logger.error(
          { err, client: redactMqttClientId(client.id) },
          'cannot authenticate: device registry unavailable',
        );
        done(Object.assign(new Error('server unavailable'), { returnCode: 3 }), false);
      });
  };

  aedes.authorizePublish = (client, packet, done) => {
    const identity = identityOf(client);
    if (!client || !identity) return done(new Error('publish from an unidentified client'));
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    const decision = decidePublish(identity, {
      topic: packet.topic,
      payload,
      qos: packet.qos,
      retain: packet.retain,
    });
    if (!decision.ok) {
      metrics.accessRefusals.inc({ action: 'publish', reason: decision.reason });
      // A refused will is published as the connection closes: its close has a reason of its own already.
      if (!isClosingWill(client, packet)) closeReasons.set(client, 'refused_publish');
      logger.warn(
        { client: redactMqttClientId(client.id), topic: packet.topic, reason: decision.reason },
        'publish refused',
      );
      return done(new Error(decision.reason)); // aedes closes the connection, as [MQTT-3.3.5-2] allows
    }
    if (identity.kind === 'device') {
      if (!rateLimits.allow(identity.connectionId)) {
        metrics.accessRefusals.inc({ action: 'publish', reason: 'rate_limit' });
        if (!isClosingWill(client, packet)) closeReasons.set(client, 'refused_publish');
        return done(new Error('rate_limit'));
      }
      rewriteAsUplink(identity, packet, payload);
    }
    done(null);
  };

  function rewriteAsUplink(identity: DeviceIdentity, packet: PublishPacket, raw: Buffer): void {
    const wrapped = wrapUplink(identity.mac, identity.connectionId, raw);
    metrics.uplinks.inc({ kind: wrapped.kind });
    packet.topic = wrapped.topic;
    packet.payload = wrapped.payload;
    if (voice && wrapped.kind === 'voice' && wrapped.type) voice.deviceMessage(identity, wrapped.type, raw);
  }

  aedes.authorizeSubscribe = (client, subscription: MarkedSubscription, done) => {
    if (subscription[BROKER_OWN]) return done(null, subscription);
    const identity = identityOf(client);
    if (!identity) return done(new Error('subscribe from an unidentified client'));
    const decision = decideSubscribe(identity, subscription.topic);
    if (!decision.ok) {
      metrics.accessRefusals.inc({ action: 'subscribe', reason: decision.reason });
      logger.warn(
        { client: redactMqttClientId(client.id), topic: subscription.topic, reason: decision.reason },
        'subscribe refused',
      );
      return done(null, null); // SUBACK 0x80 for this topic; the connection stays
    }
    // Old firmware asks for QoS 2; everything a device receives is QoS 0 anyway.
    done(null, identity.kind === 'device' ? { ...subscription, qos: 0 } : subscription);
  };

  aedes.on('clientReady', (client) => {
    const parser = parserOf(client);
    if (parser) slimParser(parser);
    const identity = identityOf(client);
    if (identity?.kind !== 'device') return;
    // xiaozhi §1.2: the device subscribes to nothing; it is reachable only through the broker's subscription.
    const subscription: MarkedSubscription = {
      topic: deviceP2pTopic(identity.mac),
      qos: 0,
      [BROKER_OWN]: true,
    };
    client.subscribe(subscription, (err) => {
      if (err || client.closed) {
        if (err) logger.error({ err, mac: identity.mac }, 'cannot subscribe a device to its p2p topic');
        return;
      }
      online.add(client);
      presence.online(identity);
    });
  });

  aedes.on('keepaliveTimeout', (client) => closeReasons.set(client, 'keepalive_timeout'));
  aedes.on('clientError', (client, err) => {
    metrics.malformedInput.inc({ kind: 'mqtt_protocol' });
    if (!closeReasons.has(client)) closeReasons.set(client, 'protocol_error');
    // aedes reports every delivery still queued for a client that went away as an error of its own: one
    // routine line per client (at debug), not thousands at info when a service with a full queue hangs up.
    if (err.message === CONNECTION_CLOSED) {
      if (reportedClosed.has(client)) return;
      reportedClosed.add(client);
      logger.debug({ client: redactMqttClientId(client.id), err: err.message }, 'client error');
      return;
    }
    logger.info({ client: redactMqttClientId(client.id), err: err.message }, 'client error');
  });
  aedes.on('connectionError', (client, err) => {
    metrics.malformedInput.inc({ kind: 'mqtt_connect' });
    logger.info(
      { client: redactMqttClientId(client.id), err: err.message },
      'connection error before CONNECT completed',
    );
  });

  aedes.on('clientDisconnect', (client) => {
    const identity = identityOf(client);
    if (!identity) return;
    if (identity.kind === 'service') {
      metrics.connectedServices.dec();
      return;
    }
    if (liveByMac.get(identity.mac) === client) liveByMac.delete(identity.mac);
    rateLimits.forget(identity.connectionId);
    voice?.deviceGone(identity);
    presence.offline(identity, reasonFor(client), online.has(client));
  });

  function reasonFor(client: Client): CloseReason {
    const marked = closeReasons.get(client);
    if (marked) return marked;
    if (aedes.closed) return 'broker_shutdown';
    // aedes sets _disconnected only when the client sent a DISCONNECT packet.
    return (client as Client & { _disconnected?: boolean })._disconnected
      ? 'client_disconnect'
      : 'connection_lost';
  }

  // A client id that connects to another replica closes ours (aedes does that); say why.
  internals(aedes).mq.on('$SYS/+/new/clients', (packet, cb) => {
    const fromBroker = packet.topic.split('/')[1];
    const existing = internals(aedes).clients[packet.payload.toString()];
    if (existing && fromBroker !== aedes.id) closeReasons.set(existing, 'takeover');
    cb();
  });

  return {
    disconnectDevice(mac, reason) {
      let closed = 0;
      for (const client of Object.values(internals(aedes).clients)) {
        const identity = identityOf(client);
        if (!client || identity?.kind !== 'device' || identity.mac !== mac) continue;
        closeReasons.set(client, reason);
        client.close();
        closed++;
      }
      return closed;
    },
    takeOver(notice) {
      if (notice.brokerId === aedes.id) return false;
      const local = liveByMac.get(notice.mac);
      const identity = identityOf(local);
      if (!local || identity?.kind !== 'device' || identity.connectionId === notice.connectionId)
        return false;
      // Of two connections, the later CONNECT stays; equal times are settled by the connection id, so two
      // replicas never both close theirs.
      const ours = [identity.connectedAt, identity.connectionId] as const;
      const newer =
        notice.connectedAt > ours[0] || (notice.connectedAt === ours[0] && notice.connectionId > ours[1]);
      return newer && takeOverLocally(notice.mac, undefined, 'remote');
    },
  };
}

function remoteAddressOf(client: Client): string | undefined {
  const req = client.req as { socket?: { remoteAddress?: string } } | undefined;
  const conn = client.conn as { remoteAddress?: string };
  const address = req?.socket?.remoteAddress ?? conn.remoteAddress;
  return address?.replace(/^::ffff:/, '');
}
