import type { PresenceEvent } from '@fleet/protocol';
import type { PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import type { Logger } from '@fleet/telemetry';
import type { CallRunner } from '../calls/call-runner';
import type { CallRepository } from '../calls/call-repository';
import type { DiscoveryService } from '../discovery/discovery-service';
import type { DeviceDirectory } from './device-directory';
import type { DeviceRegistry } from './device-registry';
import type { DeviceRuntime } from './device-runtime';

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
    if (event.state === 'online') {
      if (device.online && device.connectionId === event.connectionId) return;
      device.online = true;
      device.connectionId = event.connectionId;
      device.onlineAt = new Date(event.at);
      device.notifyPresence();
      this.whenBack(device, event.connectionId);
    } else {
      if (device.connectionId !== event.connectionId) return; // an older connection's goodbye
      device.online = false;
      device.notifyPresence();
      this.countOffline();
    }
    this.events.publish({
      type: 'presence',
      deviceId: event.mac,
      state: event.state,
      connectionId: event.connectionId,
      ...(event.reason ? { reason: event.reason } : {}),
      at: event.at,
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
