import { FUNCTION_NAME_RULE, FunctionNames } from './function-names';

/** xiaozhi §3.4: the stock firmware's common and user-only tools, plus board tools of the kinds seen in the wild. */
const FIRMWARE_TOOL_NAMES = [
  'self.get_device_status',
  'self.audio_speaker.set_volume',
  'self.screen.set_brightness',
  'self.screen.set_theme',
  'self.camera.take_photo',
  'self.get_system_info',
  'self.reboot',
  'self.upgrade_firmware',
  'self.screen.get_info',
  'self.screen.snapshot',
  'self.screen.preview_image',
  'self.assets.set_download_url',
  'self.system.reconfigure_wifi',
  'self.led_strip.set_color',
  'self.battery.get_level',
  'self.set_press_to_talk',
  'self.lamp.turn_on',
  'self.board.relay_25.set',
];

describe('the function name mapping', () => {
  it('maps every firmware tool to a valid name and back', () => {
    const names = new FunctionNames(FIRMWARE_TOOL_NAMES);
    for (const tool of FIRMWARE_TOOL_NAMES) {
      const fn = names.functionOf(tool)!;
      expect(fn).toMatch(FUNCTION_NAME_RULE);
      expect(names.toolOf(fn)).toBe(tool);
    }
    expect(names.functionOf('self.audio_speaker.set_volume')).toBe('self_audio_speaker_set_volume');
  });

  it('keeps tools apart that would meet on one name, and keeps a valid name as it is', () => {
    const tools = ['self.a_b', 'self_a.b', 'self_a_b', 'self.a-b'];
    const names = new FunctionNames(tools);
    const fns = tools.map((t) => names.functionOf(t)!);
    expect(new Set(fns).size).toBe(tools.length);
    expect(names.functionOf('self_a_b')).toBe('self_a_b');
    for (const [i, fn] of fns.entries()) {
      expect(fn).toMatch(FUNCTION_NAME_RULE);
      expect(names.toolOf(fn)).toBe(tools[i]);
    }
  });

  it('maps the same catalog the same way whatever its order', () => {
    const tools = ['self.a_b', 'self_a.b', 'self.x', 'a.'.repeat(40), '音量'];
    const forward = new FunctionNames(tools);
    const backward = new FunctionNames([...tools].reverse());
    for (const tool of tools) expect(forward.functionOf(tool)).toBe(backward.functionOf(tool));
  });

  it('shortens names beyond 64 characters without losing which tool they are', () => {
    const long = [
      'self.' + 'very_long_segment.'.repeat(5) + 'one',
      'self.' + 'very_long_segment.'.repeat(5) + 'two',
    ];
    const names = new FunctionNames(long);
    const fns = long.map((t) => names.functionOf(t)!);
    expect(fns[0]).not.toBe(fns[1]);
    for (const [i, fn] of fns.entries()) {
      expect(fn.length).toBeLessThanOrEqual(64);
      expect(names.toolOf(fn)).toBe(long[i]);
    }
  });

  it('knows no tool behind a name the model made up', () => {
    expect(new FunctionNames(['self.reboot']).toolOf('self_shutdown')).toBeUndefined();
  });
});
