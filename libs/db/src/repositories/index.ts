export * from './evidence';
export * from './catalogs';
