export * from './calls';
export * from './approvals';
