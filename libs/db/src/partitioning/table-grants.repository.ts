import { escapeIdentifier, type ClientBase } from 'pg';

/** One entry of a table's ACL: a role (or PUBLIC) and one privilege, the owner's own left out. */
export interface GrantEntry {
  grantee: string;
  privilege: string;
}

const PRIVILEGE = /^[A-Z]+$/;

// The ACL as Postgres stores it, one privilege a row; the grantee comes back already quoted as an identifier.
const ACL_ENTRIES = `
SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(r.rolname) END AS grantee,
       a.privilege_type AS privilege
  FROM pg_class c
 CROSS JOIN LATERAL aclexplode(c.relacl) a
  LEFT JOIN pg_roles r ON r.oid = a.grantee
 WHERE c.oid = $1::regclass AND a.grantee <> c.relowner
 ORDER BY 1, 2`;

/**
 * Grants of the evidence tables, carried from the plain table to the partitioned one. A table the owner creates
 * gets the schema's default privileges (restrict_app_role: SELECT, INSERT, UPDATE, DELETE for fleet_app), which an
 * append-only table must not keep, so each new table starts from none and gets exactly what the old one had.
 */
export const tableGrantsRepository = {
  async entries(client: ClientBase, table: string): Promise<GrantEntry[]> {
    const { rows } = await client.query<GrantEntry>(ACL_ENTRIES, [table]);
    return rows;
  },

  /** Everything granted to anyone but the owner, revoked. */
  async revokeAll(client: ClientBase, table: string): Promise<void> {
    const grantees = new Set((await this.entries(client, table)).map((e) => e.grantee));
    for (const grantee of grantees)
      await client.query(`REVOKE ALL ON ${escapeIdentifier(table)} FROM ${grantee}`);
  },

  async grant(client: ClientBase, table: string, entries: readonly GrantEntry[]): Promise<void> {
    for (const e of entries) {
      if (!PRIVILEGE.test(e.privilege)) throw new Error(`unexpected privilege ${e.privilege} on ${table}`);
      await client.query(`GRANT ${e.privilege} ON ${escapeIdentifier(table)} TO ${e.grantee}`);
    }
  },

  /** DESIGN §6: the application's role never changes or removes evidence, whatever else was granted. */
  async keepAppendOnly(client: ClientBase, table: string, appRole: string): Promise<void> {
    await client.query(
      `REVOKE UPDATE, DELETE, TRUNCATE ON ${escapeIdentifier(table)} FROM ${escapeIdentifier(appRole)}`,
    );
  },
};
