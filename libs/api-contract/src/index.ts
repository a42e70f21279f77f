// @fleet/api-contract: the admin API's REST answers and live events as zod schemas (DESIGN §8). The API
// builds its OpenAPI document from them and checks its answers against them in tests; the console takes its
// types from them and parses events with them. Bundled into the browser: zod and pure TypeScript only.

export * from './vocabulary';
export * from './common';
export * from './auth';
export * from './operators';
export * from './api-keys';
export * from './devices';
export * from './catalog';
export * from './tool-profiles';
export * from './evidence';
export * from './announcement-schedules';
export * from './announcements';
export * from './calls';
export * from './approvals';
export * from './campaigns';
export * from './fleet';
export * from './firmware';
export * from './release-health';
export * from './webhooks';
export * from './groups';
export * from './quarantine';
export * from './utterances';
export * from './serial-keys';
export * from './reports';
export * from './health';
export * from './events';
export * from './filters';
export * from './answers';
