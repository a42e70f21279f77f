import type { McpReply } from '@fleet/protocol';
import { catalogHash } from './catalog-content';
import { ToolsListPages } from './tools-list-pages';

const tool = (name: string) => ({
  name,
  description: `${name} does it`,
  inputSchema: { type: 'object', properties: { on: { type: 'boolean' } } },
});
/** A page as the decoder hands it over: parsed anew from each device's bytes. */
const page = (id: number, names: string[], nextCursor?: string): McpReply =>
  JSON.parse(
    JSON.stringify({
      dialect: 'xiaozhi',
      id,
      outcome: { kind: 'result', result: { tools: names.map(tool), ...(nextCursor ? { nextCursor } : {}) } },
    }),
  ) as McpReply;

describe('tools/list pages read once per content', () => {
  it('gives a second device with the same page the first one reading, the same tool objects', () => {
    const pages = new ToolsListPages();
    const first = pages.read(page(2, ['self.a', 'self.b'], 'self.c'));
    const second = pages.read(page(7, ['self.a', 'self.b'], 'self.c'));
    expect(second.id).toBe(first.id);
    expect(second.read).toBe(first.read);
    expect(first.read.ok && first.read.value.nextCursor).toBe('self.c');
  });

  it('reads a page with other content on its own', () => {
    const pages = new ToolsListPages();
    const first = pages.read(page(2, ['self.a']));
    const other = pages.read(page(2, ['self.b']));
    expect(other.id).not.toBe(first.id);
    expect(other.read.ok && other.read.value.tools.map((t) => t.name)).toEqual(['self.b']);
  });

  it('does not remember an error reply', () => {
    const pages = new ToolsListPages();
    const error = {
      dialect: 'xiaozhi',
      id: 3,
      outcome: { kind: 'error', error: { code: -32601, message: 'Unknown method' } },
    } as McpReply;
    expect(pages.read(error)).toMatchObject({ id: undefined, read: { ok: false } });
  });

  it('hashes a catalog of pages seen together as its tools hash, and the same again without hashing', () => {
    const pages = new ToolsListPages();
    const a = pages.read(page(2, ['self.a'], 'self.b'));
    const b = pages.read(page(3, ['self.b']));
    const tools = [a, b].flatMap((p) => (p.read.ok ? p.read.value.tools : []));
    expect(pages.catalogHash([a.id, b.id], tools)).toBe(catalogHash(tools));
    expect(pages.catalogHash([a.id, b.id], [])).toBe(catalogHash(tools)); // remembered by its pages
    expect(pages.catalogHash([undefined], tools)).toBe(catalogHash(tools));
  });
});
