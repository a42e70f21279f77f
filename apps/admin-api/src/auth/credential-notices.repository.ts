import type { Client } from 'pg';

/** The Postgres channel the credential triggers announce on (migration notify_credential_changes). */
export const CREDENTIALS_CHANGED = 'credentials_changed';

/** Subscribes the listening connection to the credential triggers' notices. */
export async function listenForCredentialChanges(client: Client): Promise<void> {
  await client.query(`LISTEN ${CREDENTIALS_CHANGED}`);
}

/** A round trip on the listening connection: one that cannot answer is a connection that hears nothing. */
export async function pingListener(client: Client): Promise<void> {
  await client.query('SELECT 1');
}
