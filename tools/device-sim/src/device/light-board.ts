import type { ToolDefinition } from '@fleet/protocol';
import { BREAD_COMPACT_WIFI, type BoardConfig } from './board-profile';

/** Where the light's state lives in the simulated NVS (beside the relays: one switch each). */
export const LIGHT_KEY = 'self.light';

/**
 * The esp-hi board's light (78/xiaozhi-esp32 boards/esp-hi): a getter answering "true"/"false" and two switches
 * answering "true", the pattern a tool profile pairs (`turn_on` is proven by `get_power` reading true).
 */
export const LIGHT_TOOLS: readonly ToolDefinition[] = Object.freeze([
  { name: 'self.light.get_power', description: '获取灯是否打开', properties: [], userOnly: false },
  { name: 'self.light.turn_on', description: '打开灯', properties: [], userOnly: false },
  { name: 'self.light.turn_off', description: '关闭灯', properties: [], userOnly: false },
]);

/** A board with the light tools instead of the stub relays. */
export const ESP_HI_LIGHT: BoardConfig = {
  ...BREAD_COMPACT_WIFI,
  boardName: 'esp-hi',
  boardType: 'esp-hi',
  boardTools: LIGHT_TOOLS,
};
