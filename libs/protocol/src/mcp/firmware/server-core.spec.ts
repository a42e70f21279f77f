import { StubBoard } from '../../../test/stub-board';
import { REBOOT_TOOL, SET_VOLUME_TOOL, TAKE_PHOTO_TOOL } from '../firmware-tools';
import { toolReturn } from './replies';
import { McpServerCore, type ToolCallback } from './server-core';

const call = (id: number, name: string, args?: unknown) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, ...(args !== undefined ? { arguments: args } : {}) },
  });

describe('McpServerCore', () => {
  const board = new StubBoard();

  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call"}', 'Missing params'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}', 'Missing name'],
    [call(1, 'self.get_device_status', 'x'), 'Invalid arguments'],
    [call(1, 'self.foo', {}), 'Unknown tool: self.foo'],
    [call(1, 'self.audio_speaker.set_volume', {}), 'Missing valid argument: volume'],
    [call(1, 'self.audio_speaker.set_volume', { volume: -1 }), 'Value is below minimum allowed: 0'],
    [call(1, 'self.audio_speaker.set_volume', { volume: 101 }), 'Value exceeds maximum allowed: 100'],
    ['{"jsonrpc":"2.0","id":1,"method":"resources/list"}', 'Method not implemented: resources/list'],
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"nope"}}',
      'Failed to add tool  because of payload size limit',
    ],
  ])('answers %s with the verbatim error "%s" and no code', (request, message) => {
    expect(board.receive(request)).toEqual([`{"jsonrpc":"2.0","id":1,"error":{"message":"${message}"}}`]);
  });

  it('finds user-only tools by name even though tools/list hides them', () => {
    expect(board.receive(call(2, 'self.screen.get_info'))).toEqual([
      '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\\"width\\":240,\\"height\\":240,\\"monochrome\\":false}"}],"isError":false}}',
    ]);
  });

  it('queues the reply behind the task the tool scheduled', () => {
    const core = new McpServerCore({ boardName: 'b', firmwareVersion: '1.0.0', hasCamera: false }, [
      REBOOT_TOOL,
    ]);
    const { queue } = core.handle(call(3, 'self.reboot'), () => ({
      kind: 'returned',
      value: toolReturn.bool(true),
      scheduled: [{ kind: 'reboot' }],
    }));
    expect(queue).toEqual([
      { kind: 'run', task: { kind: 'reboot' } },
      {
        kind: 'send',
        payload:
          '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"true"}],"isError":false}}',
      },
    ]);
  });

  it('hands the bound arguments and binding notes to the callback', () => {
    const core = new McpServerCore({ boardName: 'b', firmwareVersion: '1.0.0', hasCamera: false }, [
      SET_VOLUME_TOOL,
    ]);
    const seen: Parameters<ToolCallback>[0][] = [];
    core.handle(call(4, SET_VOLUME_TOOL.name, { VOLUME: 12.9 }), (step) => {
      seen.push(step);
      return { kind: 'returned', value: toolReturn.int(7) };
    });
    const [step] = seen;
    expect(step).toMatchObject({ id: 4, arguments: { volume: 12 } });
    expect(step?.notes.map((n) => n.kind)).toEqual(['key_case_differs', 'integer_truncated']);
  });

  it('turns a thrown callback into an error reply with the message unescaped', () => {
    const core = new McpServerCore({ boardName: 'b', firmwareVersion: '1.0.0', hasCamera: false }, [
      SET_VOLUME_TOOL,
    ]);
    const { queue } = core.handle(call(5, SET_VOLUME_TOOL.name, { volume: 1 }), () => ({
      kind: 'threw',
      message: 'bad "thing"',
    }));
    expect(queue).toEqual([
      { kind: 'send', payload: '{"jsonrpc":"2.0","id":5,"error":{"message":"bad "thing""}}' },
    ]);
  });

  it('takes capabilities.vision from initialize only on a board with a camera', () => {
    const request =
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"vision":{"url":"http://v"}}}}';
    const withCamera = new McpServerCore({ boardName: 'cam', firmwareVersion: '2.4.2', hasCamera: true }, [
      TAKE_PHOTO_TOOL,
    ]);
    expect(withCamera.receive(request)).toEqual({
      kind: 'reply',
      id: 1,
      payload:
        '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"cam","version":"2.4.2"}}}',
      vision: { url: 'http://v', token: '' },
    });
    expect(board.core.receive(request)).not.toHaveProperty('vision');
  });

  it('says why it stays silent', () => {
    expect(board.core.receive('{"jsonrpc":"2.0","id":"7","method":"tools/list"}')).toMatchObject({
      kind: 'silent',
      reason: 'id_not_number',
    });
  });
});
