// Transparency-log primitives, pure (no I/O): RFC 6962 / RFC 9162 Merkle trees and proofs, and the C2SP signed-note,
// tlog-checkpoint and tlog-cosignature formats, so evidence checkpoints are checked with the tools such logs use.
export * from './merkle';
export * from './ed25519';
export * from './signed-note';
export * from './checkpoint';
export * from './cosignature';
