// The lease queries live in lease-store.repository.ts (SQL only in repository files, DESIGN §8).
export { LeaseStore, type Lease } from './lease-store.repository';
