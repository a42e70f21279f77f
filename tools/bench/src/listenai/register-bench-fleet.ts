import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from 'pg';
import { generateLinkToken } from '@fleet/auth';
import { macFor } from '@fleet/device-sim';

/**
 * `devices` ListenAI devices as an operator's registration leaves them (device rows of that dialect, hashed link
 * tokens), written in three statements; the tokens go to a file (mode 0600) for the fleet's process.
 */
export async function registerBenchFleet(
  sql: Client,
  o: { devices: number; macPrefix: string; outDir: string },
): Promise<string> {
  const operator = randomUUID();
  await sql.query(`INSERT INTO operator (id, email, name, role) VALUES ($1, $2, 'Bench', 'operator')`, [
    operator,
    `${operator}@bench.invalid`,
  ]);
  const macs = Array.from({ length: o.devices }, (_, i) => macFor(o.macPrefix, i));
  const tokens = macs.map(() => generateLinkToken());
  await sql.query(
    `INSERT INTO device (id, client_id, dialect, board, updated_at)
     SELECT unnest($1::text[]), gen_random_uuid()::text, 'listenai', 'arcs-mini', now()`,
    [macs],
  );
  await sql.query(
    `INSERT INTO device_link_token (id, device_id, prefix, secret_hash, issued_by)
     SELECT gen_random_uuid(), unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), $4`,
    [macs, tokens.map((t) => t.prefix), tokens.map((t) => t.secretHash), operator],
  );
  const file = join(o.outDir, 'listenai-tokens.json');
  writeFileSync(file, JSON.stringify(Object.fromEntries(macs.map((mac, i) => [mac, tokens[i]!.plaintext]))), {
    mode: 0o600,
  });
  return file;
}
