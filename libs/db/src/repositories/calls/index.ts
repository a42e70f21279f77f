export { type CallRecord } from './call-record';
export { createCall, callByIdempotencyKey, loadCall, type NewCall } from './call-creation.repository';
export { callStateRepository } from './call-state.repository';
