export * from './batching';
export * from './client';
export * from './migrations';
export * from './partitioning';
export * as DbEnums from './generated/prisma/enums';
export * from './operators';
export * from './repositories';
