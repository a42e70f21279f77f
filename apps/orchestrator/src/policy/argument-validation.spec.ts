import {
  readToolsListPage,
  firmwareToolCatalog,
  firmwareToolJson,
  firmwareDefinitionOf,
  type ListedTool,
} from '@fleet/protocol';
import { checkArguments } from './argument-validation';
import { checkLimits } from './operator-limits';

const catalog = (() => {
  const defs = firmwareToolCatalog(
    { backlight: true, lvgl: true, themes: true, camera: false, snapshot: true, assets: true },
    [],
  );
  const result = JSON.parse(`{"tools":[${defs.map((d) => firmwareToolJson(d)).join(',')}]}`) as unknown;
  const page = readToolsListPage({ dialect: 'xiaozhi', id: 1, outcome: { kind: 'result', result } });
  if (!page.ok) throw new Error(page.error.message);
  return new Map(page.value.tools.map((t) => [t.name, t]));
})();

function check(name: string, args: unknown) {
  const tool = catalog.get(name) as ListedTool;
  const firmware = firmwareDefinitionOf(tool);
  return checkArguments(tool, firmware.ok ? firmware.value : undefined, args);
}

describe('strict argument validation', () => {
  it('accepts exactly what the schema declares', () => {
    expect(check('self.audio_speaker.set_volume', { volume: 40 })).toMatchObject({ ok: true, errors: [] });
  });

  it('refuses a fraction for an integer and says what the firmware would have done', () => {
    const result = check('self.audio_speaker.set_volume', { volume: 40.7 });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toContain('truncate 40.7 to 40');
    expect(result.firmwareWouldDo).toContainEqual(
      expect.objectContaining({ kind: 'integer_truncated', used: 40 }),
    );
  });

  it('refuses out of range values before the device sees them', () => {
    expect(check('self.audio_speaker.set_volume', { volume: 101 }).errors).toEqual([
      'argument "volume" is above its maximum 100',
    ]);
  });

  it('refuses names that differ only in case, which would slip past a limit on the device', () => {
    const result = check('self.audio_speaker.set_volume', { Volume: 80, volume: 30 });
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toContain('only in case');
  });

  it('refuses a wrong type even where a default exists, and undeclared names', () => {
    expect(check('self.screen.snapshot', { url: 'http://x/', quality: '80' }).errors).toEqual([
      'argument "quality" must be an integer, got a string',
    ]);
    expect(check('self.get_device_status', { verbose: true }).errors).toEqual([
      'argument "verbose" is not declared by the tool',
    ]);
  });

  it('requires the url of upgrade_firmware, whose default is its description text', () => {
    expect(check('self.upgrade_firmware', {}).errors).toEqual(['argument "url" is missing']);
    const firmware = check('self.upgrade_firmware', {});
    expect(firmware.firmwareWouldDo).toContainEqual(
      expect.objectContaining({ kind: 'default_used', property: 'url' }),
    );
  });
});

describe('operator limits', () => {
  it('apply per group and name the rule that failed', () => {
    const limits = [
      { name: 'classrooms', limits: { 'self.audio_speaker.set_volume': { volume: { maximum: 70 } } } },
    ];
    expect(checkLimits(limits, 'self.audio_speaker.set_volume', { volume: 80 })).toEqual([
      { group: 'classrooms', rule: 'volume <= 70', ok: false },
    ]);
    expect(checkLimits(limits, 'self.audio_speaker.set_volume', { volume: 60 })[0]!.ok).toBe(true);
    expect(checkLimits(limits, 'self.screen.set_brightness', { brightness: 100 })).toEqual([]);
  });
});

describe("validation against the device's whole schema", () => {
  const declared = (inputSchema: Record<string, unknown>): ListedTool => {
    const result = { tools: [{ name: 'set_led', description: 'LED', inputSchema }] };
    const page = readToolsListPage({ dialect: 'xiaozhi', id: 1, outcome: { kind: 'result', result } });
    if (!page.ok) throw new Error(page.error.message);
    return page.value.tools[0]!;
  };
  const led = declared({
    type: 'object',
    properties: {
      color: { type: 'string', enum: ['red', 'green', 'blue', 'off'] },
      name: { type: 'string', pattern: '^[a-z]+$', maxLength: 8 },
      mode: { const: 'steady' },
      at: {
        type: 'object',
        properties: { x: { type: 'integer' } },
        required: ['x'],
        additionalProperties: false,
      },
      level: {
        oneOf: [
          { type: 'integer', maximum: 3 },
          { type: 'string', enum: ['max'] },
        ],
      },
    },
    required: ['color'],
  });

  it('refuses a value outside an enum, naming the field and what it allows', () => {
    const result = checkArguments(led, undefined, { color: 'purple' });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual(['argument "color" must be one of "red", "green", "blue", "off"']);
    expect(checkArguments(led, undefined, { color: 'red' }).ok).toBe(true);
  });

  it('refuses what pattern, lengths, const, nested objects and oneOf declare against', () => {
    const errors = (args: Record<string, unknown>) => checkArguments(led, undefined, args).errors;
    expect(errors({ color: 'red', name: 'Bad!' })).toEqual(['argument "name" must match pattern "^[a-z]+$"']);
    expect(errors({ color: 'red', name: 'abcdefghij' })[0]).toContain('argument "name"');
    expect(errors({ color: 'red', mode: 'blink' })).toEqual(['argument "mode" must be "steady"']);
    expect(errors({ color: 'red', at: {} })).toEqual(['argument "at.x" is missing']);
    expect(errors({ color: 'red', at: { x: 1, y: 2 } })).toEqual([
      'argument "at.y" is not declared by the tool',
    ]);
    expect(errors({ color: 'red', level: 7 }).join()).toContain('argument "level"');
    expect(errors({ color: 'red', level: 'max', at: { x: 1 }, mode: 'steady', name: 'abc' })).toEqual([]);
  });

  it("keeps the firmware's quirk before the schema's words: a case twin is named as one", () => {
    expect(checkArguments(led, undefined, { Color: 'red', color: 'red' }).errors).toEqual([
      'argument "Color" differs from "color" only in case: the firmware would take it as "color"',
    ]);
  });
});
