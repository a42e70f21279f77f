import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { generateLinkToken } from '@fleet/auth';

export interface RegisteredListenAiDevice {
  mac: string;
  token: string;
  tokenId: string;
}

/**
 * A ListenAI device as an operator's registration leaves it (an active device row of that dialect, a hashed
 * link token), written straight to the database for tests that are not about the registration API.
 */
export async function registerListenAiDevice(
  ownerPool: Pool,
  mac: string,
  { model = 'arcs-mini' }: { model?: string } = {},
): Promise<RegisteredListenAiDevice> {
  const operatorId = randomUUID();
  await ownerPool.query(
    `INSERT INTO operator (id, email, name, role) VALUES ($1, $2, 'Registrar', 'operator')`,
    [operatorId, `${operatorId}@example.com`],
  );
  await ownerPool.query(
    `INSERT INTO device (id, client_id, dialect, board, updated_at) VALUES ($1, $2, 'listenai', $3, now())`,
    [mac, randomUUID(), model],
  );
  const token = generateLinkToken();
  const tokenId = randomUUID();
  await ownerPool.query(
    `INSERT INTO device_link_token (id, device_id, prefix, secret_hash, issued_by) VALUES ($1, $2, $3, $4, $5)`,
    [tokenId, mac, token.prefix, token.secretHash, operatorId],
  );
  return { mac, token: token.plaintext, tokenId };
}
