import type { Pool } from '@fleet/db';
import { firmwareDefinitionOf, readToolsListPage, type ListedTool } from '@fleet/protocol';
import type { UnitTx } from '../evidence/commit-queue';
import { catalogHash, diffCatalogs, toolIdentity } from './catalog-content';
import type { CatalogTool, CatalogView, OrderingRuleView } from './catalog-view';
import { deriveOrderingRules } from './derive-ordering-rules';

export interface DiscoveredCatalog {
  deviceId: string;
  tools: ListedTool[];
  serverName: string | undefined;
  serverVersion: string | undefined;
  protocolVersion: string | undefined;
  /** initialize and every tools/list page: ids, raw replies, timings. */
  exchanges: unknown[];
}

interface CatalogContent {
  catalogId: string;
  hash: string;
  tools: ListedTool[];
  rules: OrderingRuleView[];
  /** The tools as calls read them, built once per content: thousands of devices share one (issue 9: memory). */
  views?: ReadonlyMap<string, CatalogTool>;
}

/**
 * Catalogs are stored once per content (hash) and shared by every device that lists the same tools; a device
 * gets a new version only when its content changes, with the diff recorded (issue 5: discovery).
 */
export class CatalogRepository {
  private readonly contents = new Map<string, CatalogContent>();

  constructor(
    private readonly pool: Pool,
    private readonly derivedRuleMaxAgeMs: number,
  ) {}

  async store(tx: UnitTx, found: DiscoveredCatalog): Promise<{ view: CatalogView; changed: boolean }> {
    const hash = catalogHash(found.tools);
    const catalogId = await this.catalogFor(tx, hash, found.tools);
    const { rows: current } = await tx.query<{ id: string; version: number; catalog_id: string }>(
      `SELECT id, version, catalog_id FROM device_catalog_version WHERE device_id = $1 ORDER BY version DESC LIMIT 1`,
      [found.deviceId],
    );
    const latest = current[0];
    let version: { id: string; version: number; discovered_at: Date };
    let changed = false;
    if (latest && latest.catalog_id === catalogId) {
      const { rows } = await tx.query<{ id: string; version: number; discovered_at: Date }>(
        `UPDATE device_catalog_version SET last_confirmed_at = now(),
                server_name = $2, server_version = $3, protocol_version = $4
          WHERE id = $1 RETURNING id, version, discovered_at`,
        [latest.id, found.serverName ?? null, found.serverVersion ?? null, found.protocolVersion ?? null],
      );
      version = rows[0]!;
    } else {
      changed = true;
      const previous = latest ? (await this.content(latest.catalog_id)).tools : undefined;
      const { rows } = await tx.query<{ id: string; version: number; discovered_at: Date }>(
        `INSERT INTO device_catalog_version (id, device_id, version, catalog_id, server_name, server_version, protocol_version, diff, exchanges)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING id, version, discovered_at`,
        [
          found.deviceId,
          (latest?.version ?? 0) + 1,
          catalogId,
          found.serverName ?? null,
          found.serverVersion ?? null,
          found.protocolVersion ?? null,
          previous ? JSON.stringify(diffCatalogs(previous, found.tools)) : null,
          JSON.stringify(found.exchanges),
        ],
      );
      version = rows[0]!;
    }
    await tx.query('UPDATE device SET catalog_version_id = $2, updated_at = now() WHERE id = $1', [
      found.deviceId,
      version.id,
    ]);
    const content = await this.content(catalogId, tx);
    return { view: this.view(content, version, found.serverName, found.serverVersion), changed };
  }

  /** The catalog a device had when this replica took it over (what discovery confirmed last). */
  async loadCurrent(deviceId: string): Promise<{ view: CatalogView; confirmedAt: Date } | undefined> {
    const { rows } = await this.pool.query<{
      id: string;
      version: number;
      catalog_id: string;
      discovered_at: Date;
      last_confirmed_at: Date;
      server_name: string | null;
      server_version: string | null;
    }>(
      `SELECT v.id, v.version, v.catalog_id, v.discovered_at, v.last_confirmed_at, v.server_name, v.server_version
         FROM device d JOIN device_catalog_version v ON v.id = d.catalog_version_id WHERE d.id = $1`,
      [deviceId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const content = await this.content(row.catalog_id);
    return {
      view: this.view(content, row, row.server_name ?? undefined, row.server_version ?? undefined),
      confirmedAt: row.last_confirmed_at,
    };
  }

  private async catalogFor(tx: UnitTx, hash: string, tools: ListedTool[]): Promise<string> {
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO tool_catalog (id, hash, tool_count) VALUES (gen_random_uuid(), $1, $2)
       ON CONFLICT (hash) DO NOTHING RETURNING id`,
      [hash, tools.length],
    );
    const fresh = inserted.rows[0];
    if (!fresh) {
      const { rows } = await tx.query<{ id: string }>('SELECT id FROM tool_catalog WHERE hash = $1', [hash]);
      return rows[0]!.id;
    }
    await tx.query(
      `INSERT INTO tool (catalog_id, position, name, description, input_schema, annotations, user_only)
       SELECT $1, u.position, u.name, u.description, u.input_schema, u.annotations, u.user_only
         FROM unnest($2::int[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[], $7::boolean[])
           AS u(position, name, description, input_schema, annotations, user_only)
       ON CONFLICT DO NOTHING`,
      [
        fresh.id,
        tools.map((_, i) => i),
        tools.map((t) => t.name),
        tools.map((t) => t.description),
        tools.map((t) => JSON.stringify(t.inputSchema)),
        tools.map((t) => (t.annotations ? JSON.stringify(t.annotations) : null)),
        tools.map((t) => t.userOnly),
      ],
    );
    const rules = deriveOrderingRules(tools);
    if (rules.length > 0) {
      await tx.query(
        `INSERT INTO ordering_rule (id, source, catalog_id, tool, requires, max_age_ms, action, evidence)
         SELECT gen_random_uuid(), 'derived', $1, u.tool, u.requires, $2, 'run_first', u.evidence
           FROM unnest($3::text[], $4::text[], $5::text[]) AS u(tool, requires, evidence)
         ON CONFLICT DO NOTHING`,
        [
          fresh.id,
          this.derivedRuleMaxAgeMs,
          rules.map((r) => r.tool),
          rules.map((r) => r.requires),
          rules.map((r) => r.evidence),
        ],
      );
    }
    return fresh.id;
  }

  /** A catalog's tools and derived rules; immutable, so cached for as long as the process lives. */
  private async content(catalogId: string, tx?: UnitTx): Promise<CatalogContent> {
    const cached = this.contents.get(catalogId);
    if (cached) return cached;
    // One after the other: inside a unit they share one connection, which runs one query at a time.
    const query = tx ? tx.query.bind(tx) : this.pool.query.bind(this.pool);
    const catalog = await query<{ hash: string }>('SELECT hash FROM tool_catalog WHERE id = $1', [catalogId]);
    const tools = await query<{
      name: string;
      description: string;
      input_schema: unknown;
      annotations: unknown;
    }>(
      'SELECT name, description, input_schema, annotations FROM tool WHERE catalog_id = $1 ORDER BY position',
      [catalogId],
    );
    const rules = await query<{
      id: string;
      tool: string;
      requires: string;
      max_age_ms: number;
      action: 'run_first' | 'refuse';
      evidence: string | null;
    }>('SELECT id, tool, requires, max_age_ms, action, evidence FROM ordering_rule WHERE catalog_id = $1', [
      catalogId,
    ]);
    const page = readToolsListPage({
      dialect: 'xiaozhi',
      id: 0,
      outcome: {
        kind: 'result',
        result: {
          tools: tools.rows.map((t) =>
            toolIdentity({
              name: t.name,
              description: t.description,
              inputSchema: t.input_schema as Record<string, unknown>,
              properties: [],
              userOnly: false,
              ...(t.annotations ? { annotations: t.annotations as Record<string, unknown> } : {}),
            }),
          ),
        },
      },
    });
    if (!page.ok) throw new Error(`stored catalog ${catalogId} does not read back: ${page.error.message}`);
    const content: CatalogContent = {
      catalogId,
      hash: catalog.rows[0]!.hash,
      tools: page.value.tools,
      rules: rules.rows.map((r) => ({
        id: r.id,
        source: 'derived',
        tool: r.tool,
        requires: r.requires,
        maxAgeMs: r.max_age_ms,
        action: r.action,
        catalogId,
        ...(r.evidence ? { evidence: r.evidence } : {}),
      })),
    };
    this.contents.set(catalogId, content);
    return content;
  }

  private view(
    content: CatalogContent,
    version: { id: string; version: number; discovered_at: Date },
    serverName: string | undefined,
    serverVersion: string | undefined,
  ): CatalogView {
    content.views ??= toolViews(content.tools);
    return {
      versionId: version.id,
      version: version.version,
      catalogId: content.catalogId,
      hash: content.hash,
      discoveredAt: version.discovered_at.toISOString(),
      serverName,
      serverVersion,
      tools: content.views,
      rules: content.rules,
    };
  }
}

function toolViews(listedTools: readonly ListedTool[]): ReadonlyMap<string, CatalogTool> {
  const tools = new Map<string, CatalogTool>();
  for (const listed of listedTools) {
    const firmware = firmwareDefinitionOf(listed);
    tools.set(listed.name, {
      name: listed.name,
      description: listed.description,
      inputSchema: listed.inputSchema,
      annotations: listed.annotations,
      userOnly: listed.userOnly,
      listed,
      firmware: firmware.ok ? firmware.value : undefined,
    });
  }
  return tools;
}
