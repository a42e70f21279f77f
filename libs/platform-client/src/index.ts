export {
  CALL_REQUEST_DEFAULTS,
  CallRequests,
  callRequestSchema,
  type CallRequest,
  type CallRequestResult,
  type RequestOptions,
  type ValidCallRequest,
} from './call-requests';
export { PlatformEventBus, subscribePlatformEvents } from './platform-event-bus';
export { WebhookNotifier } from './webhook-notifier';
export { isUserOnlyTool } from './user-only-gate';
export { argumentsHash } from './approvals';
