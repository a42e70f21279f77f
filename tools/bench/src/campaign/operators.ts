import type { Client } from 'pg';
import { generateApiKey } from '@fleet/auth';

/**
 * A person with an API key of their role, inserted as tools/e2e does it (the API has no sign-up; an install's
 * first admin comes from `db:create-admin`). Returns the key's plain text, shown once.
 */
export async function createOperatorKey(
  sql: Client,
  role: 'operator' | 'admin',
  name: string,
): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO operator (id, email, name, role)
     VALUES (gen_random_uuid(), gen_random_uuid() || '@bench.example', $1, $2) RETURNING id`,
    [name, role],
  );
  const key = generateApiKey();
  await sql.query(
    `INSERT INTO api_key (id, operator_id, name, prefix, secret_hash, role)
     VALUES (gen_random_uuid(), $1, 'bench', $2, $3, $4)`,
    [rows[0]!.id, key.prefix, key.secretHash, role],
  );
  return key.plaintext;
}
