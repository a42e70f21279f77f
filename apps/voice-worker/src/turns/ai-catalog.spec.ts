import { aiCatalog } from './ai-catalog';
import type { CatalogToolRow } from './catalog-repository';

const tool = (name: string, over: Partial<CatalogToolRow> = {}): CatalogToolRow => ({
  name,
  description: `${name} does something`,
  inputSchema: { type: 'object', properties: {} },
  annotations: null,
  userOnly: false,
  sensitive: null,
  ...over,
});

const ROWS = [
  tool('self.get_device_status'),
  tool('self.audio_speaker.set_volume'),
  tool('self.camera.take_photo'),
  tool('self.lamp.turn_on', { sensitive: true }),
  tool('self.reboot', { userOnly: true }),
];

describe('the catalog the LLM sees', () => {
  it('leaves out user-only tools, tools marked sensitive, and the camera without a vision model', () => {
    const { specs } = aiCatalog(ROWS, { vision: false });
    expect(specs.map((s) => s.tool)).toEqual(['self.get_device_status', 'self.audio_speaker.set_volume']);
    expect(specs.map((s) => s.name)).toEqual(['self_get_device_status', 'self_audio_speaker_set_volume']);
  });

  it('offers the camera once a vision model answers its photos', () => {
    expect(aiCatalog(ROWS, { vision: true }).specs.map((s) => s.tool)).toContain('self.camera.take_photo');
  });

  it('still maps a guessed name of a hidden tool back to it, so the refusal is on record', () => {
    expect(aiCatalog(ROWS, { vision: false }).names.toolOf('self_reboot')).toBe('self.reboot');
  });

  describe('a tool sensitive by default', () => {
    const CONFIRM = 'Turn the oven on. **CAUTION** You must ask the user to confirm before calling it.';

    it('stays hidden when no operator marked it', () => {
      const rows = [tool('self.oven.on', { description: CONFIRM })];
      expect(aiCatalog(rows, { vision: false }).specs).toEqual([]);
    });

    it('stays hidden when the device declares it destructive and no operator marked it', () => {
      const rows = [tool('self.disk.wipe', { annotations: { destructiveHint: true } })];
      expect(aiCatalog(rows, { vision: false }).specs).toEqual([]);
    });

    it('is offered once an operator lifted the default (marked sensitive: false)', () => {
      const rows = [
        tool('self.oven.on', { description: CONFIRM, sensitive: false }),
        tool('self.disk.wipe', { annotations: { destructiveHint: true }, sensitive: false }),
      ];
      expect(aiCatalog(rows, { vision: false }).specs.map((s) => s.tool)).toEqual([
        'self.oven.on',
        'self.disk.wipe',
      ]);
    });
  });
});
