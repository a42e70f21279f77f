// The stub board of test/vectors/README.md, built on the lib's firmware tool definitions and McpServerCore.
// Side effects live here (the simulator owns them in production); the core produces the firmware's bytes.
import {
  firmwareToolCatalog,
  McpServerCore,
  toCJson,
  toolReturn,
  type CallStep,
  type MainTaskItem,
  type ToolCallbackOutcome,
  type ToolDefinition,
} from '../src';

export function relayTool(n: number): ToolDefinition {
  return {
    name: `self.board.relay_${String(n).padStart(2, '0')}.set`,
    description: `Switch relay ${n} of the board on or off. Use it when the user asks to switch channel ${n}; the relay keeps its state across reboots.`,
    properties: [{ name: 'on', type: 'boolean' }],
    userOnly: false,
  };
}

export const RELAY_TOOLS = Array.from({ length: 40 }, (_, n) => relayTool(n));

export const BREAD_COMPACT_WIFI_FEATURES = {
  backlight: true,
  lvgl: true,
  themes: true,
  camera: false,
  snapshot: true,
  assets: true,
};

export class StubBoard {
  readonly core = new McpServerCore(
    { boardName: 'bread-compact-wifi', firmwareVersion: '2.4.2', hasCamera: false },
    firmwareToolCatalog(BREAD_COMPACT_WIFI_FEATURES, RELAY_TOOLS),
  );
  private volume = 70;
  private brightness = 75;
  private theme = 'light';
  private rebooted = false;

  /** One request in; the payloads the device published, in order (none once it has rebooted). */
  receive(request: string): string[] {
    if (this.rebooted) return [];
    return this.runMainTask(this.core.handle(request, (call) => this.call(call)).queue);
  }

  private runMainTask(queue: MainTaskItem[]): string[] {
    const sent: string[] = [];
    for (const item of queue) {
      if (item.kind === 'send') sent.push(item.payload);
      else if (item.task.kind === 'reboot') {
        this.rebooted = true;
        return sent;
      }
      // upgrade_firmware: the download fails (no network), the device keeps running and the queue goes on.
    }
    return sent;
  }

  private call(call: CallStep): ToolCallbackOutcome {
    const args = call.arguments;
    const returned = (value: ReturnType<typeof toolReturn.bool>): ToolCallbackOutcome => ({
      kind: 'returned',
      value,
    });
    switch (call.tool.name) {
      case 'self.get_device_status':
        return returned(toolReturn.json(toCJson(this.status())));
      case 'self.audio_speaker.set_volume':
        this.volume = args['volume'] as number;
        return returned(toolReturn.bool(true));
      case 'self.screen.set_brightness':
        this.brightness = args['brightness'] as number;
        return returned(toolReturn.bool(true));
      case 'self.screen.set_theme': {
        const known = ['light', 'dark'].includes(args['theme'] as string);
        if (known) this.theme = args['theme'] as string;
        return returned(toolReturn.bool(known));
      }
      case 'self.screen.get_info':
        return returned(toolReturn.json(toCJson({ width: 240, height: 240, monochrome: false })));
      case 'self.screen.snapshot':
      case 'self.screen.preview_image':
        return { kind: 'threw', message: `Failed to open URL: ${args['url'] as string}` };
      case 'self.reboot':
        return { kind: 'returned', value: toolReturn.bool(true), scheduled: [{ kind: 'reboot' }] };
      case 'self.upgrade_firmware':
        return {
          kind: 'returned',
          value: toolReturn.bool(true),
          scheduled: [{ kind: 'upgrade_firmware', url: args['url'] as string }],
        };
      default:
        return returned(toolReturn.bool(true));
    }
  }

  private status(): unknown {
    return {
      audio_speaker: { volume: this.volume },
      screen: { brightness: this.brightness, theme: this.theme },
      battery: { level: 80, charging: false },
      network: { type: 'wifi', ssid: 'MyWiFi', signal: 'strong' },
      chip: { temperature: 42.5 },
    };
  }
}
