import { toCJson } from '../json/cjson-convert';
import { bindFirmwareArguments } from '../mcp/firmware/bind-arguments';
import { firmwareToolJson } from '../mcp/firmware/tool-json';
import { SCREEN_SNAPSHOT_TOOL, SET_VOLUME_TOOL } from '../mcp/firmware-tools';
import { firmwareDefinitionOf } from './firmware-definition';
import { readToolsListPage } from './tools-list-page';

describe('firmwareDefinitionOf', () => {
  const listed = (json: string) => {
    const page = readToolsListPage({
      dialect: 'xiaozhi',
      id: 1,
      outcome: { kind: 'result', result: JSON.parse(`{"tools":[${json}]}`) },
    });
    if (!page.ok) throw new Error(page.error.message);
    const [tool] = page.value.tools;
    if (!tool) throw new Error('no tool on the page');
    return tool;
  };

  it('gives back the firmware definition of a listed tool', () => {
    expect(firmwareDefinitionOf(listed(firmwareToolJson(SCREEN_SNAPSHOT_TOOL)))).toEqual({
      ok: true,
      value: SCREEN_SNAPSHOT_TOOL,
    });
  });

  it('lets the orchestrator predict what the firmware will do with {"Volume":80,"volume":30}', () => {
    const def = firmwareDefinitionOf(listed(firmwareToolJson(SET_VOLUME_TOOL)));
    if (!def.ok) throw new Error(def.error.message);
    expect(bindFirmwareArguments(def.value, toCJson({ Volume: 80, volume: 30 })).outcome).toEqual({
      kind: 'bound',
      values: { volume: 80 },
    });
  });

  it('refuses a schema the firmware could not have declared', () => {
    expect(
      firmwareDefinitionOf(
        listed('{"name":"x","inputSchema":{"type":"object","properties":{"level":{"type":"number"}}}}'),
      ),
    ).toMatchObject({
      ok: false,
      error: { kind: 'not_firmware_schema' },
    });
  });
});
