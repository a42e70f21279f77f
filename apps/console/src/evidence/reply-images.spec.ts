import { replyImages } from './reply-images';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('images in a reply', () => {
  it('are found in a ListenAI tools/call result and shown as data URLs', () => {
    const reply = JSON.stringify({
      id: 'x',
      action: 'mcp',
      method: 'tools/call',
      result: {
        content: [
          { type: 'text', text: '已拍照' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
        ],
        isError: false,
      },
    });
    expect(replyImages(reply)).toEqual([
      { mimeType: 'image/png', src: `data:image/png;base64,${PNG}`, bytes: 70 },
    ]);
  });

  it('are refused when the type could carry script or the data is not base64, and absent from text replies', () => {
    const reply = (item: object) => JSON.stringify({ result: { content: [item] } });
    expect(replyImages(reply({ type: 'image', data: PNG, mimeType: 'image/svg+xml' }))).toEqual([]);
    expect(replyImages(reply({ type: 'image', data: 'x"><script>', mimeType: 'image/png' }))).toEqual([]);
    expect(
      replyImages(
        '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"true"}]}}}',
      ),
    ).toEqual([]);
    expect(replyImages('not json')).toEqual([]);
  });
});
