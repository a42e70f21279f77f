import { linkRequestTarget, readLinkRequest } from './link-request';

const bearer = 'Bearer lt_0123456789_secret';

describe('a ListenAI link request', () => {
  it('opts into MCP with param {"mcp":true} and presents its token in the Authorization header', () => {
    const read = readLinkRequest({ url: linkRequestTarget(), authorization: bearer });
    expect(read).toEqual({
      ok: true,
      value: { param: { mcp: true }, token: 'lt_0123456789_secret', tokenFrom: 'header' },
    });
  });

  it('reads param as base64 JSON too, and a token from the query when there is no header', () => {
    const param = Buffer.from('{"mcp":true,"lang":"zh"}').toString('base64');
    const read = readLinkRequest({
      url: `/v1/interaction/?param=${param}&token=t1`,
      authorization: undefined,
    });
    expect(read).toMatchObject({ ok: true, value: { param: { mcp: true, lang: 'zh' }, tokenFrom: 'query' } });
  });

  it.each([
    ['/v2/interaction?param=%7B%22mcp%22%3Atrue%7D', 'wrong_path'],
    ['/v1/interaction', 'no_param'],
    ['/v1/interaction?param=not-json', 'unreadable_param'],
    ['/v1/interaction?param=%5B1%5D', 'unreadable_param'],
    ['/v1/interaction?param=%7B%22mcp%22%3Afalse%7D', 'no_mcp_opt_in'],
    ['/v1/interaction?param=%7B%7D', 'no_mcp_opt_in'],
  ])('refuses %s as %s', (url, kind) => {
    expect(readLinkRequest({ url, authorization: bearer })).toMatchObject({ ok: false, error: { kind } });
  });

  it('refuses a request without a token, naming it', () => {
    expect(readLinkRequest({ url: linkRequestTarget(), authorization: 'Basic abc' })).toMatchObject({
      ok: false,
      error: { kind: 'no_token' },
    });
  });
});
