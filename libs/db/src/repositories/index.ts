export * from './calls';
export * from './approvals';
export * from './evidence';
export * from './catalogs';
