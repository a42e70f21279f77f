import type { Compilable } from 'kysely';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import { toolNameFlags } from '@fleet/domain';
import type { QueryResultRow } from 'pg';
import { firmwareDefinitionOf, readToolsListPage, type ListedTool } from '@fleet/protocol';
import type { UnitTx } from '../evidence/commit-queue';
import type { NamedReply } from '../mcp/exchange';
import { catalogHash, diffCatalogs, toolIdentity } from './catalog-content';
import type { CatalogTool, CatalogView, OrderingRuleView } from './catalog-view';
import { deriveOrderingRules } from './derive-ordering-rules';

export interface DiscoveredCatalog {
  deviceId: string;
  tools: ListedTool[];
  /** catalogHash(tools), when the caller knows it already (ToolsListPages). */
  hash?: string;
  serverName: string | undefined;
  serverVersion: string | undefined;
  protocolVersion: string | undefined;
  /** initialize and every tools/list page: ids, timings, each reply named by its hash (discoveryRecords). */
  exchanges: unknown[];
  /** The replies the exchanges name, once each. */
  replies?: readonly NamedReply[];
}

interface StoredVersion {
  id: string;
  version: number;
  discovered_at: Date;
}

interface CatalogContent {
  catalogId: string;
  hash: string;
  tools: ListedTool[];
  rules: OrderingRuleView[];
  /** The tools as calls read them, built once per content: thousands of devices share one (DESIGN §7: memory per device). */
  views?: ReadonlyMap<string, CatalogTool>;
}

/** Reply hashes remembered at most (a few per firmware build; a miss costs one idempotent INSERT). */
const MAX_REMEMBERED_REPLIES = 4_096;

/**
 * Catalogs are stored once per content (hash) and shared by every device that lists the same tools; a device
 * gets a new version only when its content changes, with the diff recorded (DESIGN §3).
 */
export class CatalogRepository {
  private readonly contents = new Map<string, CatalogContent>();
  /** Content hash → its committed `tool_catalog` row: a catalog seen before costs no statement (DESIGN §3). */
  private readonly idsByHash = new Map<string, string>();
  /** Hashes of committed `discovery_reply` rows: a fleet of one build stores its replies once, not per device. */
  private readonly storedReplies = new Set<string>();
  private readonly db: Database;

  constructor(
    private readonly pool: Pool,
    private readonly derivedRuleMaxAgeMs: number,
  ) {
    this.db = createDatabase(pool);
  }

  async store(tx: UnitTx, found: DiscoveredCatalog): Promise<{ view: CatalogView; changed: boolean }> {
    const hash = found.hash ?? catalogHash(found.tools);
    const catalogId = this.idsByHash.get(hash) ?? (await this.catalogFor(tx, hash, found.tools));
    await this.storeReplies(
      tx,
      (found.replies ?? []).filter((r) => !this.storedReplies.has(r.sha256)),
    );
    const stored =
      (await this.storeCommonCase(tx, found, catalogId)) ?? (await this.storeChange(tx, found, catalogId));
    const content = await this.content(catalogId, tx);
    return {
      view: this.view(content, stored.version, found.serverName, found.serverVersion),
      changed: stored.changed,
    };
  }

  /**
   * A device's first catalog, or the one it had again, in one statement: the version inserted (with the
   * exchanges that produced it) or confirmed, and the device row pointed at it. A fleet powering on is nothing
   * but these. Undefined when the device's latest version holds another catalog: that takes a diff.
   */
  private async storeCommonCase(
    tx: UnitTx,
    found: DiscoveredCatalog,
    catalogId: string,
  ): Promise<{ version: StoredVersion; changed: boolean } | undefined> {
    const { rows } = await tx.query<StoredVersion & { changed: boolean }>(
      `WITH latest AS (
         SELECT id, catalog_id FROM device_catalog_version WHERE device_id = $1 ORDER BY version DESC LIMIT 1
       ), confirmed AS (
         UPDATE device_catalog_version v
            SET last_confirmed_at = now(), server_name = $3, server_version = $4, protocol_version = $5
           FROM latest
          WHERE v.id = latest.id AND latest.catalog_id = $2
         RETURNING v.id, v.version, v.discovered_at, false AS changed
       ), inserted AS (
         INSERT INTO device_catalog_version (id, device_id, version, catalog_id, server_name, server_version,
                                             protocol_version, diff, exchanges)
         SELECT gen_random_uuid(), $1, 1, $2, $3, $4, $5, NULL, $6::jsonb
          WHERE NOT EXISTS (SELECT 1 FROM latest)
         RETURNING id, version, discovered_at, true AS changed
       ), stored AS (
         SELECT * FROM confirmed UNION ALL SELECT * FROM inserted
       ), pointed AS (
         UPDATE device d SET catalog_version_id = stored.id, updated_at = now() FROM stored WHERE d.id = $1
       )
       SELECT id, version, discovered_at, changed FROM stored`,
      [
        found.deviceId,
        catalogId,
        found.serverName ?? null,
        found.serverVersion ?? null,
        found.protocolVersion ?? null,
        JSON.stringify(found.exchanges),
      ],
    );
    const [row] = rows;
    return row ? { version: row, changed: row.changed } : undefined;
  }

  /** A new version of a device whose catalog changed, with the diff from the one before (DESIGN §3). */
  private async storeChange(
    tx: UnitTx,
    found: DiscoveredCatalog,
    catalogId: string,
  ): Promise<{ version: StoredVersion; changed: boolean }> {
    const [latest] = await run(
      tx,
      this.db
        .selectFrom('device_catalog_version')
        .select(['id', 'version', 'catalog_id'])
        .where('device_id', '=', found.deviceId)
        .orderBy('version', 'desc')
        .limit(1),
    );
    const previous = latest ? (await this.content(latest.catalog_id, tx)).tools : undefined;
    const [inserted] = await run(
      tx,
      this.db
        .insertInto('device_catalog_version')
        .values({
          id: sql<string>`gen_random_uuid()`,
          device_id: found.deviceId,
          version: (latest?.version ?? 0) + 1,
          catalog_id: catalogId,
          server_name: found.serverName ?? null,
          server_version: found.serverVersion ?? null,
          protocol_version: found.protocolVersion ?? null,
          diff: previous ? JSON.stringify(diffCatalogs(previous, found.tools)) : null,
          exchanges: JSON.stringify(found.exchanges),
        })
        .returning(['id', 'version', 'discovered_at']),
    );
    await run(
      tx,
      this.db
        .updateTable('device')
        .set({ catalog_version_id: inserted!.id, updated_at: sql<Date>`now()` })
        .where('id', '=', found.deviceId),
    );
    return { version: inserted!, changed: true };
  }

  /**
   * Called once the unit that stored `view` has committed: only then is its catalog row certain to exist, so
   * only then may later discoveries of the same content skip looking it up (a rolled-back insert must not be
   * remembered).
   */
  committed(view: CatalogView, replies: readonly NamedReply[] = []): void {
    this.idsByHash.set(view.hash, view.catalogId);
    if (this.storedReplies.size + replies.length > MAX_REMEMBERED_REPLIES) this.storedReplies.clear();
    for (const reply of replies) this.storedReplies.add(reply.sha256);
  }

  /**
   * Replies not stored yet, in hash order: two units storing the same replies at once take their row locks in
   * one order (the one that waits goes on once the other commits). A reply stored before is left as it is: the
   * same hash is the same bytes.
   */
  private async storeReplies(tx: UnitTx, replies: readonly NamedReply[]): Promise<void> {
    if (replies.length === 0) return;
    const sorted = [...replies].sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
    await tx.query(
      `INSERT INTO discovery_reply (sha256, raw)
       SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (sha256) DO NOTHING`,
      [sorted.map((r) => r.sha256), sorted.map((r) => r.raw)],
    );
  }

  /** The catalog a device had when this replica took it over (what discovery confirmed last). */
  async loadCurrent(deviceId: string): Promise<{ view: CatalogView; confirmedAt: Date } | undefined> {
    const row = await this.db
      .selectFrom('device as d')
      .innerJoin('device_catalog_version as v', 'v.id', 'd.catalog_version_id')
      .select([
        'v.id',
        'v.version',
        'v.catalog_id',
        'v.discovered_at',
        'v.last_confirmed_at',
        'v.server_name',
        'v.server_version',
      ])
      .where('d.id', '=', deviceId)
      .executeTakeFirst();
    if (!row) return undefined;
    const content = await this.content(row.catalog_id);
    return {
      view: this.view(content, row, row.server_name ?? undefined, row.server_version ?? undefined),
      confirmedAt: row.last_confirmed_at,
    };
  }

  private async catalogFor(tx: UnitTx, hash: string, tools: ListedTool[]): Promise<string> {
    const [fresh] = await run(
      tx,
      this.db
        .insertInto('tool_catalog')
        .values({ id: sql<string>`gen_random_uuid()`, hash, tool_count: tools.length })
        .onConflict((oc) => oc.column('hash').doNothing())
        .returning('id'),
    );
    if (!fresh) {
      const [existing] = await run(
        tx,
        this.db.selectFrom('tool_catalog').select('id').where('hash', '=', hash),
      );
      return existing!.id;
    }
    // Each tool's name flags (libs/domain toolNameFlags) travel as a JSON array: unnest flattens a 2-D array.
    await tx.query(
      `INSERT INTO tool (catalog_id, position, name, description, input_schema, annotations, user_only, name_flags,
                         output_schema)
       SELECT $1, u.position, u.name, u.description, u.input_schema, u.annotations, u.user_only,
              ARRAY(SELECT jsonb_array_elements_text(u.name_flags)), u.output_schema
         FROM unnest($2::int[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[], $7::boolean[], $8::jsonb[],
                     $9::jsonb[])
           AS u(position, name, description, input_schema, annotations, user_only, name_flags, output_schema)
       ON CONFLICT DO NOTHING`,
      [
        fresh.id,
        tools.map((_, i) => i),
        tools.map((t) => t.name),
        tools.map((t) => t.description),
        tools.map((t) => JSON.stringify(t.inputSchema)),
        tools.map((t) => (t.annotations ? JSON.stringify(t.annotations) : null)),
        tools.map((t) => t.userOnly),
        tools.map((t) => JSON.stringify(toolNameFlags(t.name))),
        tools.map((t) => (t.outputSchema ? JSON.stringify(t.outputSchema) : null)),
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
    const on = <O>(q: Compilable<O>) => (tx ? run(tx, q) : this.db.executeQuery(q).then((r) => r.rows));
    const [catalog] = await on(this.db.selectFrom('tool_catalog').select('hash').where('id', '=', catalogId));
    const tools = await on(
      this.db
        .selectFrom('tool')
        .select(['name', 'description', 'input_schema', 'annotations'])
        .where('catalog_id', '=', catalogId)
        .orderBy('position'),
    );
    const rules = await on(
      this.db
        .selectFrom('ordering_rule')
        .select(['id', 'tool', 'requires', 'max_age_ms', 'action', 'evidence'])
        .where('catalog_id', '=', catalogId),
    );
    const page = readToolsListPage({
      dialect: 'xiaozhi',
      id: 0,
      outcome: {
        kind: 'result',
        result: {
          tools: tools.map((t) =>
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
      hash: catalog!.hash,
      tools: page.value.tools,
      rules: rules.map((r) => ({
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
    version: StoredVersion,
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

/** A typed query run on the unit's own connection (its transaction), rows as the generated tables type them. */
async function run<O>(tx: UnitTx, query: Compilable<O>): Promise<O[]> {
  const compiled = query.compile();
  const { rows } = await tx.query<O & QueryResultRow>(compiled.sql, compiled.parameters as unknown[]);
  return rows;
}
