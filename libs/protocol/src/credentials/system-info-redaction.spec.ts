import { hashClientId } from './client-id-secret';
import { hashUuidFields } from './system-info-redaction';

const UUID = '0f9c2a4e-7b1d-4c3e-9a8f-1e2d3c4b5a69';

describe('hashing the Client-Id out of a system-info reply', () => {
  it('replaces the uuid field of the tool text by its sha256 form', () => {
    const text = JSON.stringify({ version: 2, uuid: UUID, mac_address: '02:00:00:00:00:01' });
    const out = hashUuidFields(text);
    expect(out.hashed).toBe(1);
    expect(out.text).not.toContain(UUID);
    expect(JSON.parse(out.text)).toMatchObject({ uuid: `sha256:${hashClientId(UUID)}`, version: 2 });
  });

  it('replaces it inside the JSON-RPC envelope, where the text is an escaped string', () => {
    const text = JSON.stringify({ uuid: UUID.toUpperCase(), board: { type: 'x' } });
    const raw = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text }] } });
    const out = hashUuidFields(raw);
    expect(out.hashed).toBe(1);
    expect(out.text.toLowerCase()).not.toContain(UUID);
    const inner = (JSON.parse(out.text) as { result: { content: { text: string }[] } }).result.content[0]!
      .text;
    expect(JSON.parse(inner)).toMatchObject({ uuid: `sha256:${hashClientId(UUID)}` });
  });

  it('leaves a reply without a uuid field as it was', () => {
    const text = '{"volume":40,"id":"0f9c2a4e-7b1d-4c3e-9a8f-1e2d3c4b5a69"}';
    expect(hashUuidFields(text)).toEqual({ text, hashed: 0 });
  });
});
