import { Client } from 'pg';
import {
  partitionEvidence,
  type PartitionEvidenceOptions,
  type PartitionEvidenceReport,
} from './partition-evidence';

/** `npm run db:partition-evidence`: one owner connection for the run, closed whatever happens. */
export async function runEvidencePartitioning(
  ownerUrl: string,
  options: PartitionEvidenceOptions = {},
): Promise<PartitionEvidenceReport> {
  const client = new Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    return await partitionEvidence(client, options);
  } finally {
    await client.end();
  }
}
