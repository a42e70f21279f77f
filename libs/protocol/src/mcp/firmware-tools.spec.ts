import { firmwareToolCatalog, SET_VOLUME_TOOL } from './firmware-tools';
import { toolDefinitionSchema, type ToolDefinition } from './tool-definition';

const none = { backlight: false, lvgl: false, themes: false, camera: false, snapshot: false, assets: false };
const all = { backlight: true, lvgl: true, themes: true, camera: true, snapshot: true, assets: true };

describe('the firmware tool catalog', () => {
  it('registers only the unconditional tools on a bare board', () => {
    expect(firmwareToolCatalog(none, []).map((t) => t.name)).toEqual([
      'self.get_device_status',
      'self.audio_speaker.set_volume',
      'self.get_system_info',
      'self.reboot',
      'self.upgrade_firmware',
    ]);
  });

  it('orders common tools, then board tools, then user-only tools', () => {
    const board: ToolDefinition = {
      name: 'self.lamp.turn_on',
      description: 'Turn on the lamp',
      properties: [],
      userOnly: false,
    };
    const names = firmwareToolCatalog(all, [board]).map((t) => t.name);
    expect(names.indexOf('self.camera.take_photo')).toBeLessThan(names.indexOf('self.lamp.turn_on'));
    expect(names.indexOf('self.lamp.turn_on')).toBeLessThan(names.indexOf('self.get_system_info'));
    expect(names).toHaveLength(13);
  });

  it('keeps a board tool named like a common one behind it, as AddCommonTools does', () => {
    const clash: ToolDefinition = { ...SET_VOLUME_TOOL, description: 'board volume' };
    const tools = firmwareToolCatalog(none, [clash, clash]);
    expect(tools.filter((t) => t.name === SET_VOLUME_TOOL.name).map((t) => t.description)).toEqual([
      SET_VOLUME_TOOL.description,
      'board volume',
    ]);
  });

  it('holds only definitions the schema accepts', () => {
    for (const tool of firmwareToolCatalog(all, [])) expect(toolDefinitionSchema.parse(tool)).toEqual(tool);
  });

  it('refuses an integer default outside its range and duplicate property names', () => {
    const bad = {
      name: 'x',
      description: '',
      properties: [{ name: 'q', type: 'integer', default: 0, minimum: 1 }],
    };
    expect(toolDefinitionSchema.safeParse(bad).success).toBe(false);
    const dup = {
      name: 'x',
      description: '',
      properties: [
        { name: 'q', type: 'string' },
        { name: 'q', type: 'string' },
      ],
    };
    expect(toolDefinitionSchema.safeParse(dup).success).toBe(false);
  });
});
