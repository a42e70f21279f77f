import { readFirmwareRequest } from './request';

describe('readFirmwareRequest, McpServer::ParseMessage', () => {
  it.each([
    ['{"jsonrpc":"1.0","id":1,"method":"tools/list"}', 'jsonrpc_not_2_0'],
    ['{"jsonrpc":2.0,"id":1,"method":"tools/list"}', 'jsonrpc_not_2_0'],
    ['{"id":1,"method":"tools/list"}', 'jsonrpc_not_2_0'],
    ['{"jsonrpc":"2.0","id":1,"method":5}', 'method_not_string'],
    ['{"jsonrpc":"2.0","id":1}', 'method_not_string'],
    ['{"jsonrpc":"2.0","method":"notifications/initialized"}', 'notification'],
    ['{"jsonrpc":"2.0","id":39,"method":"notifications/x"}', 'notification'],
    ['{"jsonrpc":"2.0","id":1,"method":"notificationsfoo"}', 'notification'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}', 'params_not_object'],
    ['{"jsonrpc":"2.0","id":"7","method":"tools/list"}', 'id_not_number'],
    ['{"jsonrpc":"2.0","id":null,"method":"tools/list"}', 'id_not_number'],
    ['{"jsonrpc":"2.0","method":"tools/list"}', 'id_not_number'],
    ['not json', 'invalid_json'],
    ['[1,2]', 'jsonrpc_not_2_0'],
  ])('drops %s silently (%s), as the firmware does', (request, reason) => {
    expect(readFirmwareRequest(request)).toMatchObject({ kind: 'dropped', reason });
  });

  it('checks params before id, so a bad params hides a bad id', () => {
    expect(readFirmwareRequest('{"jsonrpc":"2.0","id":"x","method":"ping","params":1}')).toMatchObject({
      reason: 'params_not_object',
    });
  });

  it('drops a request whose id is a string, as the firmware does', () => {
    expect(readFirmwareRequest('{"jsonrpc":"2.0","id":"7","method":"initialize"}').kind).toBe('dropped');
  });

  it.each([
    ['2147483648', 2147483647],
    ['-2147483649', -2147483648],
    ['3.9', 3],
    ['-3.9', -3],
    ['1e300', 2147483647],
  ])('echoes id %s as the saturated int %i', (id, echoed) => {
    expect(readFirmwareRequest(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`)).toEqual({
      kind: 'not_implemented',
      id: echoed,
      method: 'ping',
    });
  });

  it('reads jsonrpc, method, id and params case-insensitively, first duplicate winning', () => {
    expect(readFirmwareRequest('{"JSONRPC":"2.0","ID":40,"Method":"ping"}')).toMatchObject({
      kind: 'not_implemented',
      id: 40,
    });
    expect(readFirmwareRequest('{"jsonrpc":"2.0","id":901,"id":"x","method":"ping"}')).toMatchObject({
      id: 901,
    });
    expect(readFirmwareRequest('{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"ping"}').kind).toBe(
      'not_implemented',
    );
  });

  it('takes the vision url and a token that defaults to empty from initialize', () => {
    const base = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":';
    expect(readFirmwareRequest(`${base}{"vision":{"url":"http://v/x","token":"t"}}}}`)).toEqual({
      kind: 'initialize',
      id: 1,
      vision: { url: 'http://v/x', token: 't' },
    });
    expect(readFirmwareRequest(`${base}{"vision":{"url":"http://v/x","token":5}}}}`)).toMatchObject({
      vision: { token: '' },
    });
    expect(readFirmwareRequest(`${base}{"vision":{"token":"t"}}}}`)).toEqual({ kind: 'initialize', id: 1 });
  });

  it('ignores a cursor that is not a string and a withUserTools that is not a bool', () => {
    expect(
      readFirmwareRequest(
        '{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"cursor":5,"withUserTools":"yes"}}',
      ),
    ).toEqual({
      kind: 'tools/list',
      id: 9,
      cursor: '',
      withUserTools: false,
    });
    expect(
      readFirmwareRequest('{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"WithUserTools":true}}'),
    ).toMatchObject({ withUserTools: true });
  });

  it('accepts an already parsed cJSON document', () => {
    expect(readFirmwareRequest({ kind: 'null' })).toMatchObject({
      kind: 'dropped',
      reason: 'jsonrpc_not_2_0',
    });
  });
});
