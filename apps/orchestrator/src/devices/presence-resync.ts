import type { MqttClient } from 'mqtt';
import type { Logger } from '@fleet/telemetry';
import type { DeviceDirectory } from './device-directory';
import type { DeviceRegistry } from './device-registry';
import type { PresenceHandler } from './presence-handler';

/**
 * Presence events are QoS 0 on a clean session: those published while this replica's own broker link was down
 * (its broker replica died, the link was cut) never reach it. After every reconnect the rows, which the broker
 * wrote meanwhile, are read back for the owned partitions: a device that came back on a new connection is
 * taken as online there (and discovered), one that went offline is taken as offline.
 */
export function resyncPresenceOnReconnect(deps: {
  mqtt: MqttClient;
  owned: () => number[];
  devices: DeviceRegistry;
  directory: DeviceDirectory;
  presence: PresenceHandler;
  logger: Logger;
}): void {
  let connectedBefore = deps.mqtt.connected;
  deps.mqtt.on('connect', () => {
    if (!connectedBefore) {
      connectedBefore = true;
      return; // the first connect: partitions are read when they are taken
    }
    void resync(deps).catch((err: unknown) => deps.logger.warn({ err }, 'presence resync failed'));
  });
}

async function resync(deps: Parameters<typeof resyncPresenceOnReconnect>[0]): Promise<void> {
  let changed = 0;
  for (const partition of deps.owned()) {
    for (const row of await deps.directory.inPartition(partition)) {
      const device = deps.devices.get(row.id);
      if (!device) continue;
      if (row.online && row.connectionId && (!device.online || device.connectionId !== row.connectionId)) {
        device.online = true;
        device.connectionId = row.connectionId;
        device.onlineAt = row.onlineAt ?? new Date();
        device.notifyPresence();
        deps.presence.whenBack(device, row.connectionId);
        changed++;
      } else if (!row.online && device.online && device.connectionId === row.connectionId) {
        device.online = false;
        device.notifyPresence();
        changed++;
      }
    }
  }
  if (changed)
    deps.logger.info({ devices: changed }, 'presence resynced from the rows after a broker reconnect');
}
