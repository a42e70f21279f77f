// The call row as the pipeline reads it: the shared calls repository's record (libs/db, typed from the schema).
export type { CallRecord } from '@fleet/db';
