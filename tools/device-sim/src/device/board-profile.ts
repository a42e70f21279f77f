import {
  firmwareToolCatalog,
  McpServerCore,
  type FirmwareToolFeatures,
  type ToolDefinition,
} from '@fleet/protocol';
import { relayTools } from './relay-tools';

/** What a build of the firmware for one board is: everything here is the same for every device of that board. */
export interface BoardConfig {
  /** BOARD_NAME, the build variant: User-Agent prefix, serverInfo.name, board.name. */
  readonly boardName: string;
  /** BOARD_TYPE from the board's config.json: board.type in the check-in. */
  readonly boardType: string;
  readonly features: FirmwareToolFeatures;
  /** Registered by the board in its constructor; listed after the common tools (xiaozhi §3.2). */
  readonly boardTools: readonly ToolDefinition[];
  /** Theme names the LVGL theme manager knows. */
  readonly themes: readonly string[];
  readonly display: { readonly width: number; readonly height: number; readonly monochrome: boolean };
  /** Lang::CODE: Accept-Language and `language` in the check-in. */
  readonly language: string;
  readonly chip: {
    readonly modelName: string;
    readonly model: number;
    readonly cores: number;
    readonly revision: number;
    readonly features: number;
    readonly flashSize: number;
    readonly minimumFreeHeap: number;
  };
}

/** The vectors' stub board (vectors/README.md): bread-compact-wifi, LVGL 240×240, themes light/dark, no camera. */
export const BREAD_COMPACT_WIFI: BoardConfig = {
  boardName: 'bread-compact-wifi',
  boardType: 'bread-compact-wifi',
  features: { backlight: true, lvgl: true, themes: true, camera: false, snapshot: true, assets: true },
  boardTools: relayTools(40),
  themes: ['light', 'dark'],
  display: { width: 240, height: 240, monochrome: false },
  language: 'zh-CN',
  chip: {
    modelName: 'esp32s3',
    model: 9,
    cores: 2,
    revision: 2,
    features: 18,
    flashSize: 16_777_216,
    minimumFreeHeap: 8_318_340,
  },
};

/**
 * A board's immutable parts, shared by every simulated device of it: the tool catalog and one McpServerCore per
 * firmware version (the core holds nothing per device).
 */
export class BoardProfile {
  readonly tools: readonly ToolDefinition[];
  private readonly cores = new Map<string, McpServerCore>();

  constructor(readonly config: BoardConfig) {
    this.tools = Object.freeze(firmwareToolCatalog(config.features, config.boardTools));
  }

  get hasCamera(): boolean {
    return this.config.features.camera && this.config.features.lvgl;
  }

  coreFor(firmwareVersion: string): McpServerCore {
    let core = this.cores.get(firmwareVersion);
    if (!core) {
      core = new McpServerCore(
        { boardName: this.config.boardName, firmwareVersion, hasCamera: this.hasCamera },
        this.tools,
      );
      this.cores.set(firmwareVersion, core);
    }
    return core;
  }
}

/** A board config with `count` relay tools instead of the default board tools. */
export function withRelayTools(config: BoardConfig, count: number): BoardConfig {
  return { ...config, boardTools: relayTools(count) };
}
