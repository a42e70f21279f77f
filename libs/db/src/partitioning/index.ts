export {
  partitionEvidence,
  type PartitionEvidenceOptions,
  type PartitionEvidenceReport,
} from './partition-evidence';
export { runEvidencePartitioning } from './run-partition-evidence';
export { monthOf, addMonths, partitionName, type Month } from './months';
