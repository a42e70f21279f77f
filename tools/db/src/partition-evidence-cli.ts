// `npm run db:partition-evidence [-- --months-ahead 3 --lock-timeout 10s --extend-only]`: opt-in. The first run
// converts the plain evidence table into monthly partitions by created_at (one transaction: writers wait for it);
// every later run only adds the partitions missing up to --months-ahead after the current month. --extend-only never
// converts (a plain table is left alone), which is what the monthly CronJob runs
// (deploy/k8s/evidence-partitions-cronjob.yaml). See docs/SCALING.md, "Evidence partitioned by time".
import { parseArgs } from 'node:util';
import { runEvidencePartitioning } from '@fleet/db';
import { loadDbToolsConfig } from './config';
import { describePartitionRun, parsePartitionArgs } from './partition-evidence-args';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'months-ahead': { type: 'string', default: '3' },
      'lock-timeout': { type: 'string', default: '10s' },
      'extend-only': { type: 'boolean', default: false },
    },
  });
  const options = parsePartitionArgs(values);
  const { ownerUrl } = loadDbToolsConfig();
  const started = Date.now();
  const report = await runEvidencePartitioning(ownerUrl, options);
  console.log(`db:partition-evidence: ${describePartitionRun(report, Date.now() - started)}`);
}

main().catch((err: Error) => {
  console.error(`db:partition-evidence failed: ${err.message}`);
  process.exit(1);
});
