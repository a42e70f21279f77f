import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@fleet/config';
import { loadOrchestratorConfig } from '../config';
import { modelReadbacksSchema } from './model-readback.schema';
import { modelRecipeFor } from './model-readbacks';

const volume = { model: 'arcs-mini', tool: 'set_volume', argument: 'value', read: { tool: 'get_volume' } };
const env = (extra: Record<string, string>) => ({ MQTT_PASSWORD: 'secret-0123456789abcdef', ...extra });

describe('per-model readbacks', () => {
  it('read a model tool back through the read tool it names, the whole answer when no path is given', () => {
    const readbacks = modelReadbacksSchema.parse([
      volume,
      { ...volume, tool: 'set_screen', path: 'screen.brightness', argument: 'brightness', settleMs: 500 },
    ]);
    expect(modelRecipeFor(readbacks, { board: 'arcs-mini' }, 'set_volume')).toEqual({
      kind: 'readback',
      path: [],
      argument: 'value',
      settleMs: 0,
      read: { tool: 'get_volume', arguments: {} },
    });
    expect(modelRecipeFor(readbacks, { board: 'arcs-mini' }, 'set_screen')?.path).toEqual([
      'screen',
      'brightness',
    ]);
  });

  it('know a device by its registered board or by the server name its initialize gave', () => {
    const readbacks = modelReadbacksSchema.parse([volume]);
    expect(
      modelRecipeFor(readbacks, { board: null, catalog: { serverName: 'arcs-mini' } }, 'set_volume'),
    ).toBeDefined();
    expect(
      modelRecipeFor(readbacks, { board: 'arcs-lite', catalog: { serverName: 'arcs-lite' } }, 'set_volume'),
    ).toBeUndefined();
    expect(modelRecipeFor(readbacks, { board: 'arcs-mini' }, 'set_screen')).toBeUndefined();
  });

  it('refuse at start a list that gives a model tool twice, a bad path or an unknown field, naming the variable', () => {
    expect(() => loadOrchestratorConfig(env({ MODEL_READBACKS: JSON.stringify([volume, volume]) }))).toThrow(
      /MODEL_READBACKS.*given twice/s,
    );
    expect(() =>
      loadOrchestratorConfig(env({ MODEL_READBACKS: JSON.stringify([{ ...volume, path: 'a..b' }]) })),
    ).toThrow(ConfigError);
    expect(() =>
      loadOrchestratorConfig(env({ MODEL_READBACKS: JSON.stringify([{ ...volume, colour: 1 }]) })),
    ).toThrow(/MODEL_READBACKS/);
    expect(() => loadOrchestratorConfig(env({ MODEL_READBACKS: '{' }))).toThrow(/MODEL_READBACKS: not JSON/);
  });

  it('take a list from a file as well, refusing one that repeats the variable', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'readbacks-')), 'readbacks.json');
    writeFileSync(file, JSON.stringify([{ ...volume, model: 'arcs-max' }]));
    const config = loadOrchestratorConfig(
      env({ MODEL_READBACKS: JSON.stringify([volume]), MODEL_READBACKS_FILE: file }),
    );
    expect(config.MODEL_READBACKS.map((r) => r.model)).toEqual(['arcs-mini', 'arcs-max']);
    writeFileSync(file, JSON.stringify([volume]));
    expect(() =>
      loadOrchestratorConfig(env({ MODEL_READBACKS: JSON.stringify([volume]), MODEL_READBACKS_FILE: file })),
    ).toThrow(/MODEL_READBACKS_FILE: arcs-mini set_volume is also in MODEL_READBACKS/);
    expect(() => loadOrchestratorConfig(env({ MODEL_READBACKS_FILE: join(file, 'missing') }))).toThrow(
      /MODEL_READBACKS_FILE: cannot read/,
    );
  });
});
