import type { Mac, McpServerCore } from '@fleet/protocol';
import type { Clock } from '../clock/clock';
import type { SlotImage } from '../firmware/flash-slots';
import type { SimLogger } from '../util/logger';
import type { TypedEmitter } from '../util/typed-emitter';
import type { DeviceConfig } from './device-config';
import type { EfuseIdentity } from './efuse';
import type { FaultSettings } from './faults';
import type { NvsState } from './nvs';
import type { DeviceEventMap, DeviceStats, Observations, RestartReason } from './observations';

/** What the parts of a simulated device share: the device across its power-ons (NVS, counters, events). */
export interface DeviceHost {
  readonly mac: Mac;
  readonly config: DeviceConfig;
  /** Burnt in at the factory, when the device has them: kept across reboots and flash erases. */
  readonly efuse: EfuseIdentity | undefined;
  readonly clock: Clock;
  nvs: NvsState;
  readonly faults: FaultSettings;
  readonly stats: DeviceStats;
  readonly observed: Observations;
  readonly events: TypedEmitter<DeviceEventMap>;
  readonly log: SimLogger;
  /** The firmware's MCP server for the image that is running. */
  core(): McpServerCore;
  runningImage(): SlotImage;
  /** esp_restart() or a crash: this power-on ends where it stands and the next one begins. */
  restart(reason: RestartReason, detail?: string): void;
}
