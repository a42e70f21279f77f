import * as domain from '@fleet/domain';
import * as local from './constants';

describe("the console's copies of the platform's vocabularies", () => {
  it.each([
    ['VERDICTS', local.VERDICTS, domain.VERDICTS],
    ['EVIDENCE_STAGES', local.EVIDENCE_STAGES, domain.EVIDENCE_STAGES],
    ['CALL_STATES', local.CALL_STATES, domain.CALL_STATES],
    ['CALL_ORIGINS', local.CALL_ORIGINS, domain.CALL_ORIGINS],
    ['CAMPAIGN_STATES', local.CAMPAIGN_STATES, domain.CAMPAIGN_STATES],
    ['CAMPAIGN_TARGET_STATES', local.CAMPAIGN_TARGET_STATES, domain.CAMPAIGN_TARGET_STATES],
  ])('%s are those of @fleet/domain, in its order', (_name, mine, theirs) => {
    expect(mine).toEqual([...theirs]);
  });
});
