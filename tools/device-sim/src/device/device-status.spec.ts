import { printCJson } from '@fleet/protocol';
import { BREAD_COMPACT_WIFI } from './board-profile';
import { DEFAULT_SENSORS, DEFAULT_WIFI } from './device-config';
import { deviceStatusJson, wifiSignal } from './device-status';

describe('get_device_status', () => {
  const base = {
    board: BREAD_COMPACT_WIFI,
    sensors: DEFAULT_SENSORS,
    wifi: DEFAULT_WIFI,
    volume: 70,
    brightness: 75,
    theme: 'light',
  };

  it('is the firmware JSON of a WiFi board, key for key', () => {
    expect(printCJson(deviceStatusJson(base))).toBe(
      '{"audio_speaker":{"volume":70},"screen":{"brightness":75,"theme":"light"},"battery":{"level":80,"charging":false},' +
        '"network":{"type":"wifi","ssid":"MyWiFi","signal":"strong"},"chip":{"temperature":42.5}}',
    );
  });

  it('leaves out what the board lacks: backlight, theme on a small screen, battery, chip', () => {
    const board = {
      ...BREAD_COMPACT_WIFI,
      features: { ...BREAD_COMPACT_WIFI.features, backlight: false },
      display: { width: 128, height: 64, monochrome: true },
    };
    const json = printCJson(
      deviceStatusJson({ ...base, board, sensors: { battery: null, chipTemperature: null } }),
    );
    expect(json).toBe(
      '{"audio_speaker":{"volume":70},"screen":{},"network":{"type":"wifi","ssid":"MyWiFi","signal":"strong"}}',
    );
  });

  it.each([
    [-60, 'strong'],
    [-61, 'medium'],
    [-70, 'medium'],
    [-71, 'weak'],
  ])('calls rssi %i %s', (rssi, signal) => {
    expect(wifiSignal(rssi)).toBe(signal);
  });
});
