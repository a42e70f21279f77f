// @fleet/device-sim: simulated xiaozhi-esp32 devices (DESIGN §2) for tests, demos and load.

// Devices and fleets
export { SimDevice, type SharedDeviceParts } from './device/sim-device';
export { createDevice, createFleet, Fleet, DEFAULT_MAC_PREFIX, type FleetOptions } from './fleet/fleet';
export { summaryLine, type FleetSummary } from './fleet/fleet-summary';
export {
  DEFAULT_FIRMWARE_VERSION,
  freshNvs,
  type DeviceOptions,
  type DeviceConfigOptions,
} from './device/device-options';
export {
  DEFAULT_SENSORS,
  DEFAULT_VOICE,
  DEFAULT_WIFI,
  type DeviceConfig,
  type VoiceConfig,
} from './device/device-config';
export { BoardProfile, BREAD_COMPACT_WIFI, withRelayTools, type BoardConfig } from './device/board-profile';
export { ESP_HI_LIGHT, LIGHT_TOOLS } from './device/light-board';
export { relayTool, relayTools } from './device/relay-tools';
export { macFor, uuidFor } from './device/identity';
export { efuseCsv, efuseFor, type EfuseIdentity } from './device/efuse';
export { wifiSignal, type BoardSensors, type WifiEnvironment } from './device/device-status';
export type { NvsState, NvsValue } from './device/nvs';
export type {
  CheckInRecord,
  DeviceEventMap,
  DeviceState,
  DeviceStats,
  DownlinkDrop,
  RestartReason,
  UpgradeEvent,
  WireMessage,
} from './device/observations';
export type { VoiceSessionOptions } from './voice/voice-control';

// Timing and faults
export { FAST_TIMINGS, FIRMWARE_TIMINGS, scaleTimings, type DeviceTimings } from './device/timings';
export { NO_FAULTS, type FaultKnobs } from './device/faults';
export { SharedClock, defaultClock, sleep, type Clock, type Cancel } from './clock/clock';

// Firmware images
export {
  buildAppImage,
  parseAppImage,
  appImageDefaults,
  compileTimeOf,
  APP_DESC_OFFSET,
  APP_DESC_MAGIC,
  type AppImage,
  type AppImageError,
} from './firmware/app-image';
export type { FlashState, ImageCrash, OtaLabel, SlotImage } from './firmware/flash-slots';

// The lean MQTT client the devices use
export { LeanMqttClient, type LeanMqttHandlers, type LeanMqttOptions } from './mqtt/lean-client';
export { ESP_MQTT_RECONNECT, backoffDelay, type BackoffPolicy } from './mqtt/backoff';

// Opus helpers for voice tests
export { encodePcm, decodeOpus, UPLINK_SAMPLE_RATE, FRAME_MS } from './voice/opus-codec';

// A stand-in OTA server (device HTTP) for tests, demos and load runs
export {
  startFakeOtaServer,
  type FakeOtaServer,
  type FakeOtaServerOptions,
  type OtaAnswerPlan,
  type RecordedRequest,
} from './fake-ota/fake-ota-server';
export { otaCredentials } from './fake-ota/ota-credentials';

export type { SimLogger } from './util/logger';

// ListenAI devices (seed 002) over the platform's WebSocket link
export {
  ListenAiDevice,
  ARCS_MINI_INFO,
  type ListenAiDeviceOptions,
  type ListenAiEvents,
  type ListenAiFaults,
  type ListenAiClose,
} from './listenai/listenai-device';
export {
  ListenAiFleet,
  type ListenAiFleetOptions,
  type ListenAiFleetSummary,
} from './listenai/listenai-fleet';
export { ListenAiMcpServer, type ListenAiServerInfo } from './listenai/listenai-mcp-server';
export {
  ARCS_MINI_TOOLS,
  SAMPLE_PNG_BASE64,
  type ListenAiState,
  type ListenAiTool,
  type ListenAiToolResult,
} from './listenai/listenai-tools';
