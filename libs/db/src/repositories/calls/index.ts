export { type CallRecord } from './call-record';
export {
  createCall,
  createCalls,
  createCallsBrief,
  callByIdempotencyKey,
  loadCall,
  type CreatedCall,
  type NewAuditEvent,
  type NewCall,
} from './call-creation.repository';
export { callStateRepository, type Queryable } from './call-state.repository';
export type { CallStep, CallTransition, StepOutcome } from './call-step';
export { loadCallsToRun, type CallToRun, type DevicePolicy } from './call-loads.repository';
export { busyHoldOf, holdForConversation, overrideBusyLock, type BusyHold } from './busy-holds.repository';
