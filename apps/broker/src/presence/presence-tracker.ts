import type { Aedes } from 'aedes';
import {
  encodePresenceEvent,
  fingerprintOfHash,
  fleetPresenceTopic,
  type PresenceEvent,
} from '@fleet/protocol';
import type { Logger } from '@fleet/telemetry';
import type { BrokerMetrics } from '../broker-metrics';
import type { ClientIdentity } from '../mqtt/client-identity';
import type { PresenceWriter } from './presence-writer';

/** What presence needs of a device connection, whichever edge holds it (MQTT or the ListenAI link). */
type DeviceIdentity = Pick<
  Extract<ClientIdentity, { kind: 'device' }>,
  'mac' | 'connectionId' | 'clientIdHash' | 'keepalive' | 'remoteAddress'
>;

export type CloseReason =
  | 'client_disconnect'
  | 'keepalive_timeout'
  | 'takeover'
  | 'protocol_error'
  | 'refused_publish'
  | 'connection_lost'
  | 'broker_shutdown'
  | 'revoked'
  | 'decommissioned'
  | 'token_revoked';

/**
 * Turns connection life into presence: an `online` event once the device's p2p subscription exists (before
 * that, a clean-session QoS 0 device would miss what is sent to it), an `offline` event with its reason, and
 * the matching rows. Events go out on fleet/devices/<mac_>/presence for the services.
 */
export class PresenceTracker {
  private readonly openedAt = new Map<string, Date>();

  constructor(
    private readonly aedes: Aedes,
    private readonly writer: PresenceWriter,
    private readonly metrics: BrokerMetrics,
    private readonly logger: Logger,
    private readonly brokerId: string,
  ) {}

  connected(identity: DeviceIdentity): void {
    this.openedAt.set(identity.connectionId, new Date());
  }

  online(identity: DeviceIdentity): void {
    const now = new Date();
    this.metrics.connectedDevices.inc();
    this.writer.recordOpened({
      connectionId: identity.connectionId,
      mac: identity.mac,
      clientIdHash: identity.clientIdHash,
      brokerId: this.brokerId,
      remoteAddress: identity.remoteAddress,
      keepalive: identity.keepalive,
      openedAt: this.openedAt.get(identity.connectionId) ?? now,
      onlineAt: now,
    });
    this.announce(identity, 'online', now);
  }

  offline(identity: DeviceIdentity, reason: CloseReason, wasOnline: boolean): void {
    const now = new Date();
    this.openedAt.delete(identity.connectionId);
    this.metrics.disconnects.inc({ reason });
    if (!wasOnline) return; // it never got its subscription: nothing was announced, nothing to take back
    this.metrics.connectedDevices.dec();
    this.writer.recordClosed({
      connectionId: identity.connectionId,
      mac: identity.mac,
      closedAt: now,
      reason,
    });
    this.announce(identity, 'offline', now, reason);
  }

  private announce(identity: DeviceIdentity, state: PresenceEvent['state'], at: Date, reason?: string): void {
    const event = encodePresenceEvent({
      mac: identity.mac,
      connectionId: identity.connectionId,
      clientIdFingerprint: fingerprintOfHash(identity.clientIdHash),
      brokerId: this.brokerId,
      state,
      at: at.toISOString(),
      keepalive: identity.keepalive,
      ...(reason ? { reason } : {}),
    });
    if (!event.ok) {
      this.logger.error({ error: event.error }, 'cannot encode a presence event');
      return;
    }
    this.aedes.publish(
      {
        cmd: 'publish',
        topic: fleetPresenceTopic(identity.mac),
        payload: Buffer.from(event.value),
        qos: 0,
        retain: false,
        dup: false,
      },
      (err) => {
        if (err) this.logger.warn({ err, mac: identity.mac }, 'presence event not published');
      },
    );
  }
}
