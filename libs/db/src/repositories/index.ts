export * from './calls';
export * from './approvals';
export * from './evidence';
export * from './catalogs';
export { executeNamed, type StatementTarget } from './named-statements.repository';
export * from './profiles';
export * from './releases';
export * from './groups';
