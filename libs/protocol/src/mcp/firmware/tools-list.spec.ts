import { BREAD_COMPACT_WIFI_FEATURES, RELAY_TOOLS } from '../../../test/stub-board';
import { utf8ByteLength } from '../../json/utf8';
import { firmwareToolCatalog } from '../firmware-tools';
import type { ToolDefinition } from '../tool-definition';
import { firmwareToolJson } from './tool-json';
import { firmwareToolsListPage, TOOLS_LIST_PAYLOAD_LIMIT } from './tools-list';

const catalog = firmwareToolCatalog(BREAD_COMPACT_WIFI_FEATURES, RELAY_TOOLS);
const relay = (n: number) => `self.board.relay_${String(n).padStart(2, '0')}.set`;

function page(cursor: string, withUserTools: boolean) {
  const outcome = firmwareToolsListPage(catalog, cursor, withUserTools);
  if (outcome.kind !== 'page') throw new Error(outcome.message);
  return outcome;
}

describe('firmwareToolsListPage, McpServer::GetToolsList', () => {
  it('puts the 4 common tools and relay_00 to relay_24 on page 1, with nextCursor relay_25', () => {
    const first = page('', false);
    expect(first.toolNames).toEqual([
      'self.get_device_status',
      'self.audio_speaker.set_volume',
      'self.screen.set_brightness',
      'self.screen.set_theme',
      ...Array.from({ length: 25 }, (_, n) => relay(n)),
    ]);
    expect(first.nextCursor).toBe('self.board.relay_25.set');
    expect(first.resultJson.endsWith('],"nextCursor":"self.board.relay_25.set"}')).toBe(true);
    expect(utf8ByteLength(first.resultJson)).toBeLessThanOrEqual(TOOLS_LIST_PAYLOAD_LIMIT);
  });

  it('starts page 2 at the cursor tool and has no nextCursor on the last page', () => {
    const second = page('self.board.relay_25.set', false);
    expect(second.toolNames).toEqual(Array.from({ length: 15 }, (_, n) => relay(25 + n)));
    expect(second.nextCursor).toBeUndefined();
    expect(second.resultJson.endsWith(']}')).toBe(true);
  });

  it('lists the user-only tools at the end only when withUserTools is true', () => {
    expect(page('self.board.relay_25.set', true).toolNames.slice(15)).toEqual([
      'self.get_system_info',
      'self.reboot',
      'self.upgrade_firmware',
      'self.screen.get_info',
      'self.screen.snapshot',
      'self.screen.preview_image',
      'self.assets.set_download_url',
    ]);
  });

  it('writes a tool as name, description, inputSchema (required only without default), then annotations', () => {
    const snapshot = catalog.find((t) => t.name === 'self.screen.snapshot')!;
    expect(firmwareToolJson(snapshot)).toBe(
      '{"name":"self.screen.snapshot","description":"Snapshot the screen and upload it to a specific URL","inputSchema":{"type":"object","properties":{"url":{"type":"string"},"quality":{"type":"integer","default":80,"minimum":1,"maximum":100}},"required":["url"]},"annotations":{"audience":["user"]}}',
    );
    const flag: ToolDefinition = {
      name: 'f',
      description: '',
      properties: [{ name: 'on', type: 'boolean', default: true }],
      userOnly: false,
    };
    expect(firmwareToolJson(flag)).toBe(
      '{"name":"f","description":"","inputSchema":{"type":"object","properties":{"on":{"type":"boolean","default":true}}}}',
    );
  });

  it('answers "Failed to add tool  because of payload size limit" for an unknown cursor', () => {
    expect(firmwareToolsListPage(catalog, 'self.nope', true)).toMatchObject({
      kind: 'error',
      message: 'Failed to add tool  because of payload size limit',
    });
  });

  it('answers the same empty-name error for a cursor into the user-only tail without withUserTools', () => {
    expect(firmwareToolsListPage(catalog, 'self.reboot', false)).toMatchObject({
      kind: 'error',
      nextCursor: '',
    });
  });

  it('names the tool in the error when even the first tool of the page is too big', () => {
    const huge: ToolDefinition = {
      name: 'self.huge',
      description: 'x'.repeat(8000),
      properties: [],
      userOnly: false,
    };
    expect(firmwareToolsListPage([huge], '', false)).toEqual({
      kind: 'error',
      message: 'Failed to add tool self.huge because of payload size limit',
      nextCursor: 'self.huge',
    });
  });

  it('answers an empty list, not an error, when there are no tools at all', () => {
    expect(firmwareToolsListPage([], '', false)).toEqual({
      kind: 'page',
      resultJson: '{"tools":[]}',
      toolNames: [],
    });
  });

  it('splits a page of Chinese descriptions earlier, counting UTF-8 bytes rather than string units', () => {
    const tools = [1, 2, 3].map((n): ToolDefinition => ({
      name: `self.cn_${n}`,
      description: '打开客厅的灯'.repeat(200),
      properties: [],
      userOnly: false,
    }));
    const units = tools.reduce((sum, t) => sum + firmwareToolJson(t).length + 1, '{"tools":['.length);
    expect(units + 30).toBeLessThanOrEqual(TOOLS_LIST_PAYLOAD_LIMIT);
    const first = firmwareToolsListPage(tools, '', false);
    expect(first).toMatchObject({
      kind: 'page',
      toolNames: ['self.cn_1', 'self.cn_2'],
      nextCursor: 'self.cn_3',
    });
  });

  it('inserts the cursor into the page unescaped, as the firmware does', () => {
    const tools = [0, 1].map((n): ToolDefinition => ({
      name: `q"${n}`,
      description: 'd'.repeat(4000),
      properties: [],
      userOnly: false,
    }));
    const first = firmwareToolsListPage(tools, '', false);
    expect(first.kind === 'page' && first.resultJson.endsWith(',"nextCursor":"q"1"}')).toBe(true);
  });
});
