import type { ToolDefinition } from './tool-definition';

// xiaozhi §3.4: the built-in tools of firmware 2.4.2 (main/mcp_server.cc), names, descriptions and schemas verbatim.

export const GET_DEVICE_STATUS_TOOL: ToolDefinition = {
  name: 'self.get_device_status',
  description:
    'Provides the real-time information of the device, including the current status of the audio speaker, screen, battery, network, etc.\n' +
    'Use this tool for: \n' +
    '1. Answering questions about current condition (e.g. what is the current volume of the audio speaker?)\n' +
    '2. As the first step to control the device (e.g. turn up / down the volume of the audio speaker, etc.)',
  properties: [],
  userOnly: false,
};

export const SET_VOLUME_TOOL: ToolDefinition = {
  name: 'self.audio_speaker.set_volume',
  description:
    'Set the volume of the audio speaker. If the current volume is unknown, you must call `self.get_device_status` tool first and then call this tool.',
  properties: [{ name: 'volume', type: 'integer', minimum: 0, maximum: 100 }],
  userOnly: false,
};

export const SET_BRIGHTNESS_TOOL: ToolDefinition = {
  name: 'self.screen.set_brightness',
  description: 'Set the brightness of the screen.',
  properties: [{ name: 'brightness', type: 'integer', minimum: 0, maximum: 100 }],
  userOnly: false,
};

export const SET_THEME_TOOL: ToolDefinition = {
  name: 'self.screen.set_theme',
  description: 'Set the theme of the screen. The theme can be `light` or `dark`.',
  properties: [{ name: 'theme', type: 'string' }],
  userOnly: false,
};

export const TAKE_PHOTO_TOOL: ToolDefinition = {
  name: 'self.camera.take_photo',
  description:
    'Always remember you have a camera. If the user asks you to see something, use this tool to take a photo and then explain it.\n' +
    'Args:\n' +
    '  `question`: The question that you want to ask about the photo.\n' +
    'Return:\n' +
    '  A JSON object that provides the photo information.',
  properties: [{ name: 'question', type: 'string' }],
  userOnly: false,
};

export const GET_SYSTEM_INFO_TOOL: ToolDefinition = {
  name: 'self.get_system_info',
  description: 'Get the system information',
  properties: [],
  userOnly: true,
};

export const REBOOT_TOOL: ToolDefinition = {
  name: 'self.reboot',
  description: 'Reboot the system',
  properties: [],
  userOnly: true,
};

export const UPGRADE_FIRMWARE_TOOL: ToolDefinition = {
  name: 'self.upgrade_firmware',
  description:
    'Upgrade firmware from a specific URL. This will download and install the firmware, then reboot the device.',
  // xiaozhi §3.4 #8: the description of `url` was passed as its default value, so `url` is not required.
  properties: [
    { name: 'url', type: 'string', default: 'The URL of the firmware binary file to download and install' },
  ],
  userOnly: true,
};

export const SCREEN_GET_INFO_TOOL: ToolDefinition = {
  name: 'self.screen.get_info',
  description: 'Information about the screen, including width, height, etc.',
  properties: [],
  userOnly: true,
};

export const SCREEN_SNAPSHOT_TOOL: ToolDefinition = {
  name: 'self.screen.snapshot',
  description: 'Snapshot the screen and upload it to a specific URL',
  properties: [
    { name: 'url', type: 'string' },
    { name: 'quality', type: 'integer', default: 80, minimum: 1, maximum: 100 },
  ],
  userOnly: true,
};

export const SCREEN_PREVIEW_IMAGE_TOOL: ToolDefinition = {
  name: 'self.screen.preview_image',
  description: 'Preview an image on the screen',
  properties: [{ name: 'url', type: 'string' }],
  userOnly: true,
};

export const ASSETS_SET_DOWNLOAD_URL_TOOL: ToolDefinition = {
  name: 'self.assets.set_download_url',
  description: 'Set the download url for the assets',
  properties: [{ name: 'url', type: 'string' }],
  userOnly: true,
};

/** What decides which built-in tools a firmware build registers. */
export interface FirmwareToolFeatures {
  /** A backlight: self.screen.set_brightness. */
  readonly backlight: boolean;
  /** An LVGL build (HAVE_LVGL) with an LvglDisplay: self.screen.get_info. */
  readonly lvgl: boolean;
  /** The LVGL display has a theme: self.screen.set_theme. */
  readonly themes: boolean;
  /** A camera on an LVGL build: self.camera.take_photo. */
  readonly camera: boolean;
  /** CONFIG_LV_USE_SNAPSHOT on an LVGL build: self.screen.snapshot and preview_image. */
  readonly snapshot: boolean;
  /** A valid assets partition: self.assets.set_download_url. */
  readonly assets: boolean;
}

export function commonFirmwareTools(features: FirmwareToolFeatures): ToolDefinition[] {
  return [
    GET_DEVICE_STATUS_TOOL,
    SET_VOLUME_TOOL,
    ...(features.backlight ? [SET_BRIGHTNESS_TOOL] : []),
    ...(features.lvgl && features.themes ? [SET_THEME_TOOL] : []),
    ...(features.lvgl && features.camera ? [TAKE_PHOTO_TOOL] : []),
  ];
}

export function userOnlyFirmwareTools(features: FirmwareToolFeatures): ToolDefinition[] {
  return [
    GET_SYSTEM_INFO_TOOL,
    REBOOT_TOOL,
    UPGRADE_FIRMWARE_TOOL,
    ...(features.lvgl ? [SCREEN_GET_INFO_TOOL] : []),
    ...(features.lvgl && features.snapshot ? [SCREEN_SNAPSHOT_TOOL, SCREEN_PREVIEW_IMAGE_TOOL] : []),
    ...(features.assets ? [ASSETS_SET_DOWNLOAD_URL_TOOL] : []),
  ];
}

/**
 * The firmware's tool list in its real order (xiaozhi §3.2): common tools, then the board's own tools (registered
 * first, moved behind the common ones by AddCommonTools), then the user-only tools. AddTool refuses a name it
 * already holds, except that the board tools are re-appended without that check, so a board tool named like a
 * common one shows up twice (calls reach the first).
 */
export function firmwareToolCatalog(
  features: FirmwareToolFeatures,
  boardTools: readonly ToolDefinition[],
): ToolDefinition[] {
  const board = addTools([], boardTools);
  const tools = [...addTools([], commonFirmwareTools(features)), ...board];
  return addTools(tools, userOnlyFirmwareTools(features));
}

function addTools(into: ToolDefinition[], tools: readonly ToolDefinition[]): ToolDefinition[] {
  for (const tool of tools) if (!into.some((t) => t.name === tool.name)) into.push(tool);
  return into;
}
