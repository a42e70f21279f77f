import type { Pool } from 'pg';

/** The rows an operator's registration of a ListenAI device leaves: its registrar, the device, its link token. */
export async function insertRegisteredListenAiDevice(
  ownerPool: Pool,
  rows: {
    operatorId: string;
    mac: string;
    clientId: string;
    model: string;
    token: { id: string; prefix: string; secretHash: string };
  },
): Promise<void> {
  await ownerPool.query(
    `INSERT INTO operator (id, email, name, role) VALUES ($1, $2, 'Registrar', 'operator')`,
    [rows.operatorId, `${rows.operatorId}@example.com`],
  );
  await ownerPool.query(
    `INSERT INTO device (id, client_id, dialect, board, updated_at) VALUES ($1, $2, 'listenai', $3, now())`,
    [rows.mac, rows.clientId, rows.model],
  );
  await ownerPool.query(
    `INSERT INTO device_link_token (id, device_id, prefix, secret_hash, issued_by) VALUES ($1, $2, $3, $4, $5)`,
    [rows.token.id, rows.mac, rows.token.prefix, rows.token.secretHash, rows.operatorId],
  );
}
