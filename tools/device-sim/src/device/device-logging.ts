import type { SimLogger } from '../util/logger';
import type { SimDevice } from './sim-device';

/** Logs what an operator of a demo wants to see, one line per event, with the MAC. */
export function attachLogger(device: SimDevice, log: SimLogger): void {
  const mac = device.mac;
  device.on('boot', (bootCount) => log.debug({ mac, bootCount }, 'boot'));
  device.on('check-in', (c) => log.debug({ mac, status: c.status, version: c.version }, 'OTA check-in'));
  device.on('connected', () => log.debug({ mac }, 'MQTT connected'));
  device.on('disconnected', (reason) => log.debug({ mac, reason }, 'MQTT disconnected'));
  device.on('upgrade', (u) => log.info({ mac, ...u }, 'upgrade'));
  device.on('rolled-back', (version) => log.info({ mac, version }, 'rolled back'));
  device.on('crashed', (reason) => log.warn({ mac, reason }, 'crashed'));
  device.on('warning', (message) => log.warn({ mac }, message));
}
