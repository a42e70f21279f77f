import {
  toCJson,
  toolReturn,
  type CallStep,
  type ToolCallbackOutcome,
  type ToolReturnValue,
} from '@fleet/protocol';
import { runningLabel } from '../firmware/flash-slots';
import { deviceStatusJson } from './device-status';
import type { DeviceHost } from './device-host';
import { previewImage, takePhoto, uploadSnapshot } from './http-tools';
import { LIGHT_KEY } from './light-board';
import { isRelayTool } from './relay-tools';
import type { Runtime } from './runtime';
import { systemInfoJson } from './system-info-json';

const returned = (value: ToolReturnValue): ToolCallbackOutcome => ({ kind: 'returned', value });
const TRUE = returned(toolReturn.bool(true));

/**
 * The side effects of the firmware's tools (xiaozhi §3.4); McpServerCore already bound the arguments, so they are
 * of the declared types here. A lying device (fault knob) answers "true" for every state change and does nothing.
 */
export async function runToolCallback(
  host: DeviceHost,
  rt: Runtime,
  call: CallStep,
): Promise<ToolCallbackOutcome> {
  const args = call.arguments;
  const lie = host.faults.current.lie;
  const str = (name: string) => String(args[name]);
  switch (call.tool.name) {
    case 'self.get_device_status':
      return returned(toolReturn.json(deviceStatus(host, rt)));
    case 'self.audio_speaker.set_volume':
      if (!lie) host.nvs.volume = Number(args['volume']);
      return TRUE;
    case 'self.screen.set_brightness':
      if (!lie && rt.backlight.set(Number(args['brightness']), true))
        host.nvs.brightness = rt.backlight.targetLevel;
      return TRUE;
    case 'self.screen.set_theme': {
      if (lie) return TRUE;
      const known = host.config.profile.config.themes.includes(str('theme'));
      if (known) host.nvs.theme = str('theme');
      return returned(toolReturn.bool(known));
    }
    case 'self.camera.take_photo':
      return takePhoto(host, rt, str('question'));
    case 'self.get_system_info':
      return returned(toolReturn.string(systemInfo(host)));
    case 'self.reboot':
      return lie ? TRUE : { kind: 'returned', value: toolReturn.bool(true), scheduled: [{ kind: 'reboot' }] };
    case 'self.upgrade_firmware':
      return lie
        ? TRUE
        : {
            kind: 'returned',
            value: toolReturn.bool(true),
            scheduled: [{ kind: 'upgrade_firmware', url: str('url') }],
          };
    case 'self.screen.get_info': {
      const d = host.config.profile.config.display;
      return returned(
        toolReturn.json(toCJson({ width: d.width, height: d.height, monochrome: d.monochrome })),
      );
    }
    case 'self.screen.snapshot':
      return uploadSnapshot(host, rt, str('url'));
    case 'self.screen.preview_image':
      return previewImage(host, rt, str('url'));
    case 'self.light.get_power':
      // The esp-hi board's light getter: off until switched on (a read tool's "false" is a value).
      return returned(toolReturn.bool(host.nvs.relays[LIGHT_KEY] === true));
    case 'self.light.turn_on':
    case 'self.light.turn_off':
      if (!lie) host.nvs.relays[LIGHT_KEY] = call.tool.name === 'self.light.turn_on';
      return TRUE;
    case 'self.assets.set_download_url':
      if (!lie) host.nvs.assetsDownloadUrl = str('url');
      return TRUE;
    default:
      if (!lie && isRelayTool(call.tool.name)) host.nvs.relays[call.tool.name] = args['on'] === true;
      return TRUE;
  }
}

export function deviceStatus(host: DeviceHost, rt: Runtime) {
  return deviceStatusJson({
    board: host.config.profile.config,
    sensors: host.config.sensors,
    wifi: host.config.wifi,
    volume: host.nvs.volume,
    brightness: rt.backlight.current(),
    theme: host.nvs.theme,
  });
}

export function systemInfo(host: DeviceHost): string {
  return systemInfoJson({
    board: host.config.profile.config,
    mac: host.mac,
    uuid: host.nvs.uuid,
    image: host.runningImage(),
    otaLabel: runningLabel(host.nvs.flash),
    wifi: host.config.wifi,
  });
}
