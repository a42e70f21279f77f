import { decodeHeaderValue, headerMismatch, looksModern, parseEnvelope } from './modern-request';

const call = (name: string) =>
  parseEnvelope({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
  })!;

describe('modern MCP requests', () => {
  it('tells a modern request from a legacy one by its metadata, or its version header', () => {
    const meta = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    expect(looksModern({ method: 'tools/list', params: meta }, undefined)).toBe(true);
    expect(looksModern({ method: 'tools/list' }, '2026-07-28')).toBe(true);
    expect(looksModern({ method: 'initialize' }, '2026-07-28')).toBe(false);
    expect(looksModern({ method: 'tools/list' }, '2025-11-25')).toBe(false);
    expect(looksModern({ method: 'tools/list' }, undefined)).toBe(false);
  });

  it('accepts headers that mirror the body, Mcp-Name in the base64 sentinel included', () => {
    const headers = {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'get_call',
    };
    expect(headerMismatch(headers, call('get_call'))).toBeUndefined();
    const encoded = `=?base64?${Buffer.from('音量').toString('base64')}?=`;
    expect(headerMismatch({ ...headers, 'mcp-name': encoded }, call('音量'))).toBeUndefined();
  });

  it('names the header that is missing or says something else than the body', () => {
    const headers = {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'get_call',
    };
    expect(headerMismatch({ ...headers, 'mcp-name': 'cancel_call' }, call('get_call'))).toMatch(/Mcp-Name/);
    expect(headerMismatch({ ...headers, 'mcp-method': undefined }, call('get_call'))).toMatch(
      /Mcp-Method header is required/,
    );
    expect(headerMismatch({ ...headers, 'mcp-protocol-version': '2025-11-25' }, call('get_call'))).toMatch(
      /MCP-Protocol-Version/,
    );
    expect(headerMismatch({ ...headers, 'mcp-name': undefined }, call('get_call'))).toMatch(
      /Mcp-Name header is required/,
    );
  });

  it('refuses a base64 sentinel that is not base64', () => {
    expect(decodeHeaderValue('=?base64?***?=')).toBeUndefined();
    expect(decodeHeaderValue('plain')).toBe('plain');
  });
});
