import { toCJson } from '../../json/cjson-convert';
import { firmwareErrorReply, firmwareResultReply, firmwareToolResultJson, toolReturn } from './replies';

describe('firmware reply builders', () => {
  it('writes bool, int, string and JSON results as text, isError always false', () => {
    expect(firmwareToolResultJson(toolReturn.bool(false))).toBe(
      '{"content":[{"type":"text","text":"false"}],"isError":false}',
    );
    expect(firmwareToolResultJson(toolReturn.int(-42))).toBe(
      '{"content":[{"type":"text","text":"-42"}],"isError":false}',
    );
    expect(firmwareToolResultJson(toolReturn.string('a "q"\n/é'))).toBe(
      '{"content":[{"type":"text","text":"a \\"q\\"\\n/é"}],"isError":false}',
    );
    expect(firmwareToolResultJson(toolReturn.json(toCJson({ a: [1, 'x'] })))).toBe(
      '{"content":[{"type":"text","text":"{\\"a\\":[1,\\"x\\"]}"}],"isError":false}',
    );
  });

  it('writes an image as the firmware does, its JSON stringified into an "image" field', () => {
    expect(firmwareToolResultJson(toolReturn.image('image/jpeg', new Uint8Array([1, 2, 3])))).toBe(
      '{"content":[{"type":"image","image":"{\\"type\\":\\"image\\",\\"mimeType\\":\\"image/jpeg\\",\\"data\\":\\"AQID\\"}"}],"isError":false}',
    );
  });

  it('splices the result in as it is and the error message unescaped', () => {
    expect(firmwareResultReply(7, '{"x":1}')).toBe('{"jsonrpc":"2.0","id":7,"result":{"x":1}}');
    expect(firmwareErrorReply(7, 'Failed to open URL: http://x/"a"')).toBe(
      '{"jsonrpc":"2.0","id":7,"error":{"message":"Failed to open URL: http://x/"a""}}',
    );
  });
});
