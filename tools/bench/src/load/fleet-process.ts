// A simulated fleet in a process of its own (the open-files limit is per process, and the broker's CPU must
// not be shared with the devices'). Forked by a scenario: options as JSON in argv[2], then IPC messages.
import { createFleet, type DeviceTimings, type FleetSummary } from '@fleet/device-sim';

export interface FleetProcessOptions {
  count: number;
  otaUrl: string;
  /** 0: every device powers on at once. */
  bootsPerSecond: number;
  macPrefix: string;
  /** Firmware delays to override on top of the defaults below (e.g. short reboots and flash writes). */
  timings?: Partial<DeviceTimings>;
}

export type FleetProcessMessage =
  { type: 'ready' } | { type: 'progress'; summary: FleetSummary } | { type: 'stopped' };

export type FleetProcessCommand = { type: 'start' } | { type: 'flap' } | { type: 'stop' };

const options = JSON.parse(process.argv[2] ?? '{}') as FleetProcessOptions;
const send = (message: FleetProcessMessage) => process.send?.(message);

const fleet = createFleet({
  count: options.count,
  otaUrl: options.otaUrl,
  macPrefix: options.macPrefix,
  ...(options.bootsPerSecond > 0 ? { bootsPerSecond: options.bootsPerSecond } : {}),
  // The firmware's own timings (HTTP and MQTT timeouts, retry delays), minus the 3 s of WiFi at power-on,
  // so the clock measures the platform rather than the radio.
  timings: { bootMs: 0, ...options.timings },
  reconnectJitter: 0.2,
  recordLimit: 0,
});

let timer: NodeJS.Timeout | undefined;
const report = () => send({ type: 'progress', summary: fleet.summary() });

process.on('message', (command: FleetProcessCommand) => {
  switch (command.type) {
    case 'start':
      void fleet.start();
      timer = setInterval(report, 200);
      return;
    case 'flap':
      // A network blip for everyone: esp-mqtt reconnects by itself, no reboot, no OTA check-in.
      for (const device of fleet.devices) device.flap();
      return;
    case 'stop':
      if (timer) clearInterval(timer);
      report();
      void fleet.stop().then(() => {
        send({ type: 'stopped' });
        process.disconnect();
      });
      return;
  }
});
send({ type: 'ready' });
