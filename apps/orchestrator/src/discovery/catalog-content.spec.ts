import { firmwareToolCatalog, firmwareToolJson, readToolsListPage, type ListedTool } from '@fleet/protocol';
import { catalogHash, diffCatalogs } from './catalog-content';
import { deriveOrderingRules } from './derive-ordering-rules';

function listed(): ListedTool[] {
  const features = { backlight: true, lvgl: true, themes: true, camera: false, snapshot: true, assets: true };
  const tools = firmwareToolCatalog(features, []);
  const text = `{"jsonrpc":"2.0","id":1,"result":{"tools":[${tools.map((t) => firmwareToolJson(t)).join(',')}]}}`;
  const parsed = JSON.parse(text) as { result: unknown };
  const page = readToolsListPage({
    dialect: 'xiaozhi',
    id: 1,
    outcome: { kind: 'result', result: parsed.result },
  });
  if (!page.ok) throw new Error(page.error.message);
  return page.value.tools;
}

describe('catalog content', () => {
  it('hashes the same tools the same way, and any change differently', () => {
    const tools = listed();
    expect(catalogHash(tools)).toBe(catalogHash(listed()));
    const changed = tools.map((t) =>
      t.name === 'self.screen.set_theme' ? { ...t, description: 'other' } : t,
    );
    expect(catalogHash(changed)).not.toBe(catalogHash(tools));
    expect(diffCatalogs(tools, changed)).toEqual({
      added: [],
      removed: [],
      changed: ['self.screen.set_theme'],
    });
    expect(diffCatalogs(tools.slice(1), tools)).toEqual({
      added: ['self.get_device_status'],
      removed: [],
      changed: [],
    });
  });

  it("derives set_volume's rule from its description, tied to a tool the catalog has", () => {
    const rules = deriveOrderingRules(listed());
    expect(rules.map(({ tool, requires }) => ({ tool, requires }))).toEqual([
      { tool: 'self.audio_speaker.set_volume', requires: 'self.get_device_status' },
    ]);
    expect(rules[0]!.evidence).toContain('you must call `self.get_device_status` tool first');
    const withoutStatus = listed().filter((t) => t.name !== 'self.get_device_status');
    expect(deriveOrderingRules(withoutStatus)).toEqual([]);
  });
});
