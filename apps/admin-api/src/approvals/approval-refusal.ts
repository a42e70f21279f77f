import { conflict, forbidden, notFound, type ApiError } from '../http/api-error';
import type { ApprovalFacts } from './approvals.repository';

/**
 * Why a decision did not take, in words the console can show as they are. Four-eyes compares people: a
 * second API key of the requester is still the requester.
 */
export function approvalRefusal(id: string, facts: ApprovalFacts | undefined, operatorId: string): ApiError {
  if (!facts) return notFound('approval', id);
  if (facts.state !== 'pending')
    return conflict('approval_decided', `this approval is already ${facts.state}`);
  if (facts.lapsed) return conflict('approval_expired', 'this approval expired before anyone decided');
  if (facts.requestedBy === operatorId) {
    return forbidden(
      'four_eyes',
      'you asked for this yourself; another person must decide it (another API key of yours is still you)',
    );
  }
  if (facts.callSettled) return conflict('call_not_waiting', 'the call was cancelled or has finished');
  if (facts.awaitingPreflight)
    return conflict('approval_not_ready', 'pre-flight has not checked this call yet; try again in a moment');
  if (facts.callPastDeadline)
    return conflict(
      'call_past_deadline',
      "the call's delivery deadline passed while it waited; it ends expired",
    );
  return conflict('approval_not_decidable', 'this approval cannot be decided now');
}
