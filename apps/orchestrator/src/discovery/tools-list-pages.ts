import { readToolsListPage, type ListedTool, type McpReply } from '@fleet/protocol';
import { catalogHash } from './catalog-content';

type PageRead = ReturnType<typeof readToolsListPage>;

/** Distinct pages (and catalogs) remembered at most; a fleet runs a handful of firmware builds. */
const MAX_REMEMBERED = 256;

/**
 * tools/list pages read once per content: devices of one firmware build send the same pages, so the second
 * device's page is recognised by its result's JSON text and gets the first one's reading (the same tool
 * objects: memory per device is a reference, DESIGN §7), and a catalog made of pages seen together before gets
 * its content hash without hashing it again. What is recognised is what the device sent, byte for byte after
 * JSON.parse; anything else is read as before.
 */
export class ToolsListPages {
  private readonly pages = new Map<string, { id: number; read: PageRead }>();
  private readonly hashes = new Map<string, string>();
  private nextId = 0;

  /** The page's reading, and an id naming its content (undefined for a reply that is not a result). */
  read(reply: McpReply): { read: PageRead; id: number | undefined } {
    if (reply.outcome.kind !== 'result') return { read: readToolsListPage(reply), id: undefined };
    const key = JSON.stringify(reply.outcome.result);
    const known = this.pages.get(key);
    if (known) return known;
    const read = readToolsListPage(reply);
    if (this.pages.size >= MAX_REMEMBERED) this.pages.clear();
    // Ids are never reused, so a list of them always names the same pages.
    const page = { id: this.nextId++, read };
    this.pages.set(key, page);
    return page;
  }

  /** The content hash of the catalog the pages `ids` make up (`tools`: those pages' tools, in order). */
  catalogHash(ids: readonly (number | undefined)[], tools: readonly ListedTool[]): string {
    if (ids.some((id) => id === undefined)) return catalogHash(tools);
    const key = ids.join(',');
    const known = this.hashes.get(key);
    if (known) return known;
    const hash = catalogHash(tools);
    if (this.hashes.size >= MAX_REMEMBERED) this.hashes.clear();
    this.hashes.set(key, hash);
    return hash;
  }
}
