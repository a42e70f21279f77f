/**
 * Every delay of the firmware the simulator reproduces, in milliseconds. The defaults are the firmware's own
 * (a demo looks like real devices); tests pass `FAST_TIMINGS` or scale them down.
 */
export interface DeviceTimings {
  /** Power-on to the first network-connected event (WiFi join, DHCP). */
  readonly bootMs: number;
  /** xiaozhi §4.1: first OTA retry delay; doubles after each failure (10, 20, 40 s …). */
  readonly otaRetryBaseMs: number;
  /** xiaozhi §4.3: /activate answered 202 → retry after 3 s. */
  readonly activationPendingMs: number;
  /** xiaozhi §4.3: any other /activate answer → retry after 10 s. */
  readonly activationErrorMs: number;
  /** xiaozhi §3.4 #7: self.reboot waits 1 s on the main task before Reboot(). */
  readonly rebootToolDelayMs: number;
  /** xiaozhi §3.4 #7: Reboot() waits 1 s after closing the protocol, then esp_restart(). */
  readonly rebootShutdownMs: number;
  /** xiaozhi §3.4 #8: the upgrade alert shows for 3 s before anything else happens. */
  readonly upgradeAlertMs: number;
  /** UpgradeFirmware: 1 s after stopping audio, before the download starts. */
  readonly upgradePrepareMs: number;
  /** Writing the image to flash, on top of the HTTP transfer itself. */
  readonly flashWriteMs: number;
  /** UpgradeFirmware: the "upgrade failed" alert blocks 3 s more. */
  readonly upgradeFailedAlertMs: number;
  /** UpgradeFirmware: 1 s "rebooting…" message after a good download. */
  readonly upgradeRebootDelayMs: number;
  /** xiaozhi §1.4: how long the device waits for the server hello. */
  readonly helloTimeoutMs: number;
  /** xiaozhi §1.4: the channel is open while less than this has passed since the last incoming message/packet. */
  readonly channelTimeoutMs: number;
  /** xiaozhi §1.2: connect timeout. */
  readonly mqttConnectTimeoutMs: number;
  /** esp-mqtt's own auto-reconnect interval. */
  readonly mqttReconnectMs: number;
  /** xiaozhi §1.2: the one-shot timer that re-creates the MQTT client after a disconnect (if idle). */
  readonly appReconnectMs: number;
  /** The backlight moves 1 % per step toward its target; 0 jumps at once (the vectors' stub board). */
  readonly brightnessStepMs: number;
  /** esp_http_client timeout for every HTTP call the device makes. */
  readonly httpTimeoutMs: number;
}

export const FIRMWARE_TIMINGS: DeviceTimings = {
  bootMs: 3_000,
  otaRetryBaseMs: 10_000,
  activationPendingMs: 3_000,
  activationErrorMs: 10_000,
  rebootToolDelayMs: 1_000,
  rebootShutdownMs: 1_000,
  upgradeAlertMs: 3_000,
  upgradePrepareMs: 1_000,
  flashWriteMs: 15_000,
  upgradeFailedAlertMs: 3_000,
  upgradeRebootDelayMs: 1_000,
  helloTimeoutMs: 10_000,
  channelTimeoutMs: 120_000,
  mqttConnectTimeoutMs: 10_000,
  mqttReconnectMs: 10_000,
  appReconnectMs: 60_000,
  brightnessStepMs: 5,
  httpTimeoutMs: 10_000,
};

/** The firmware's timings times `scale` (0.01 → a reboot in 20 ms); the brightness ramp and timeouts included. */
export function scaleTimings(scale: number, base: DeviceTimings = FIRMWARE_TIMINGS): DeviceTimings {
  return Object.fromEntries(
    Object.entries(base).map(([key, ms]) => [key, Math.round((ms as number) * scale)]),
  ) as unknown as DeviceTimings;
}

/** Test timings: the same sequence in milliseconds, with timeouts still long enough for a loaded CI machine. */
export const FAST_TIMINGS: DeviceTimings = {
  ...scaleTimings(0.005),
  helloTimeoutMs: 2_000,
  channelTimeoutMs: 60_000,
  mqttConnectTimeoutMs: 2_000,
  mqttReconnectMs: 50,
  appReconnectMs: 300,
  brightnessStepMs: 5,
  httpTimeoutMs: 2_000,
};
