// The signed audit export (DESIGN §6): its format, the platform's Ed25519 key, signing, and the offline check.
// Apart from @fleet/domain so that the browser console, which reads domain types, never meets node:crypto's keys.
export * from './audit-signing-key';
export * from './audit-export';
export * from './audit-export-verify';
export * from './strict-json';
export * from './trusted-key';
export * from './seal-signature';
export * from './evidence-log';
export * from './transparency-verify';
export * from './export-transparency';
