import { cursorKey, cursorOf } from '../http/cursor';

/** Approvals, newest first: when each was asked for, then its id. */
export const approvalCursor = cursorOf(cursorKey.instant, cursorKey.uuid);
