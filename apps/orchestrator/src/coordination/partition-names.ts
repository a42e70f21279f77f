import { CALL_PARTITIONS } from '@fleet/domain';

export const ALL_PARTITIONS: readonly number[] = Array.from({ length: CALL_PARTITIONS }, (_, p) => p);

export function partitionLeaseName(partition: number): string {
  return `calls-p${String(partition).padStart(2, '0')}`;
}
