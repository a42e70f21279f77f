import type { PresenceEvent } from '@fleet/protocol';
import type { PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import type { Logger } from '@fleet/telemetry';
import type { CallRunner } from '../calls/call-runner';
import type { CallRepository } from '../calls/call-repository';
import type { DiscoveryService } from '../discovery/discovery-service';
import type { DeviceDirectory } from './device-directory.repository';
import type { DeviceRegistry } from './device-registry';
import type { DeviceRuntime } from './device-runtime';

/** How long after a reconnect the device rows are read a second time (the broker writes them just after events). */
const PRESENCE_SETTLE_MS = 1_000;

export interface OfflineSurgeSettings {
  /** Devices going offline within the window that make a surge. */
  count: number;
  windowMs: number;
}

/**
 * Presence (the broker's events, keyed by connection id) turned into device runtime state: an online device is
 * discovered on its new connection, then the calls waiting for it run; an "offline" for an older connection than
 * the current one changes nothing.
 */
export class PresenceHandler {
  private readonly recentOffline: number[] = [];
  private lastSurgeAt = 0;

  constructor(
    private readonly devices: DeviceRegistry,
    private readonly directory: DeviceDirectory,
    private readonly discovery: DiscoveryService,
    private readonly calls: CallRepository,
    private readonly runner: CallRunner,
    private readonly events: PlatformEventBus,
    private readonly webhooks: WebhookNotifier,
    private readonly surge: OfflineSurgeSettings,
    private readonly logger: Logger,
  ) {}

  handle(event: PresenceEvent): void {
    const device = this.devices.get(event.mac);
    if (!device) return;
    if (event.state === 'online') this.online(device, event.connectionId, new Date(event.at));
    else this.offline(device, event.connectionId, event.at, event.reason);
  }

  /**
   * Presence events are QoS 0: the ones the broker published while this replica's MQTT link was down are lost,
   * and a device that moved to another connection meanwhile would look as if it were still on the old one (its
   * replies then never pair, DESIGN §3). After the link is back, the device rows (the broker writes each a few
   * milliseconds after its event; presence-writer.ts) say which connection every device of this replica is on.
   * Read now and once more after that settles.
   */
  resyncAfterReconnect(): void {
    const run = () =>
      this.resync().catch((err: unknown) => this.logger.warn({ err }, 'presence resync failed'));
    void run();
    setTimeout(() => void run(), PRESENCE_SETTLE_MS).unref();
  }

  /** Brings the devices of this replica in line with their rows; returns how many it changed. */
  async resync(): Promise<number> {
    const known = this.devices.all();
    if (known.length === 0) return 0;
    let changed = 0;
    for (const row of await this.directory.presenceOf(known.map((d) => d.mac))) {
      const device = this.devices.get(row.id);
      if (!device) continue;
      if (row.online && row.connectionId && row.connectionId !== device.connectionId) {
        if (!newerThanHeld(device, row.onlineAt)) continue; // a live event already told of a newer one
        this.online(device, row.connectionId, row.onlineAt ?? new Date());
        changed++;
      } else if (!row.online && device.online && device.connectionId === row.connectionId) {
        this.offline(device, row.connectionId, new Date().toISOString(), 'resync');
        changed++;
      }
    }
    if (changed) this.logger.info({ changed }, 'presence resynchronised from the device rows');
    return changed;
  }

  /**
   * A reply came on a connection this replica does not hold for the device (it never pairs). If the device row
   * says that connection is the device's current one, this replica missed its presence event: adopt it, so the
   * device is discovered there and its next call pairs.
   */
  async checkConnection(mac: string, connectionId: string): Promise<void> {
    const device = this.devices.get(mac);
    if (!device || device.connectionId === connectionId) return;
    const [row] = await this.directory.presenceOf([mac]);
    if (
      row?.online &&
      row.connectionId === connectionId &&
      device.connectionId !== connectionId &&
      newerThanHeld(device, row.onlineAt)
    ) {
      this.logger.info({ mac, connectionId }, 'a reply showed a connection whose presence event was missed');
      this.online(device, connectionId, row.onlineAt ?? new Date());
    }
  }

  private online(device: DeviceRuntime, connectionId: string, at: Date): void {
    if (device.online && device.connectionId === connectionId) return;
    device.online = true;
    device.connectionId = connectionId;
    device.onlineAt = at;
    device.notifyPresence();
    this.whenBack(device, connectionId);
    this.events.publish({
      type: 'presence',
      deviceId: device.mac,
      state: 'online',
      connectionId,
      at: at.toISOString(),
    });
  }

  private offline(device: DeviceRuntime, connectionId: string, at: string, reason?: string): void {
    if (device.connectionId !== connectionId) return; // an older connection's goodbye
    device.online = false;
    device.notifyPresence();
    this.countOffline();
    this.events.publish({
      type: 'presence',
      deviceId: device.mac,
      state: 'offline',
      connectionId,
      ...(reason ? { reason } : {}),
      at,
    });
  }

  /** Discovery on the new connection, then the calls that waited (all in the device's lane, in that order). */
  whenBack(device: DeviceRuntime, connectionId: string): void {
    void device.lane
      .run(async () => {
        if (!device.online || device.connectionId !== connectionId || device.ready) return;
        device.discoveryStartedAt = Date.now();
        const row = await this.directory.one(device.mac);
        if (row) {
          device.board = row.board;
          device.firmwareVersion = row.firmwareVersion;
          device.dialect = row.dialect;
        }
        if (!(await this.discovery.discover(device))) return;
        for (const callId of await this.calls.waitingFor(device.mac))
          this.runner.schedule(callId, device.mac);
      })
      .catch((err: unknown) =>
        this.logger.warn({ err, mac: device.mac }, 'discovery after reconnect failed'),
      );
  }

  /** DESIGN §3 webhooks: devices dropping offline in numbers (once per window, from this replica's share). */
  private countOffline(): void {
    const now = Date.now();
    this.recentOffline.push(now);
    while (this.recentOffline.length && this.recentOffline[0]! < now - this.surge.windowMs)
      this.recentOffline.shift();
    if (this.recentOffline.length < this.surge.count || now - this.lastSurgeAt < this.surge.windowMs) return;
    this.lastSurgeAt = now;
    this.webhooks
      .notify('fleet.offline_surge', {
        offlineInWindow: this.recentOffline.length,
        windowMs: this.surge.windowMs,
      })
      .catch((err: unknown) => this.logger.warn({ err }, 'cannot queue the offline surge webhook'));
  }
}

/** The row may lag a live event by a few milliseconds: only a connection that came online later replaces ours. */
function newerThanHeld(device: DeviceRuntime, onlineAt: Date | null): boolean {
  return !device.online || !device.onlineAt || !onlineAt || onlineAt > device.onlineAt;
}
