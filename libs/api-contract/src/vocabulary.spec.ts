import { ROLES as AUTH_ROLES } from '@fleet/auth';
import * as domain from '@fleet/domain';
import { DIALECTS as PROTOCOL_DIALECTS } from '@fleet/protocol';
import * as contract from './vocabulary';

describe("the contract's copies of the platform's vocabularies", () => {
  it.each([
    ['VERDICTS', contract.VERDICTS, domain.VERDICTS],
    ['EVIDENCE_STAGES', contract.EVIDENCE_STAGES, domain.EVIDENCE_STAGES],
    ['CALL_STATES', contract.CALL_STATES, domain.CALL_STATES],
    ['CALL_ORIGINS', contract.CALL_ORIGINS, domain.CALL_ORIGINS],
    ['CAMPAIGN_STATES', contract.CAMPAIGN_STATES, domain.CAMPAIGN_STATES],
    ['CAMPAIGN_TARGET_STATES', contract.CAMPAIGN_TARGET_STATES, domain.CAMPAIGN_TARGET_STATES],
    ['TOOL_NAME_FLAGS', contract.TOOL_NAME_FLAGS, domain.TOOL_NAME_FLAGS],
    ['ROLES', contract.ROLES, AUTH_ROLES],
    ['DIALECTS', contract.DIALECTS, PROTOCOL_DIALECTS],
  ])('%s are those of the lib that owns them, in its order', (_name, mine, theirs) => {
    expect([...mine]).toEqual([...theirs]);
  });
});
