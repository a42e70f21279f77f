import {
  CALL_ORIGINS,
  CALL_STATES,
  CAMPAIGN_STATES,
  CAMPAIGN_TARGET_STATES,
  EVIDENCE_STAGES,
  VERDICTS,
} from '@fleet/domain';
import { DbEnums } from './index';

// The domain lib is the vocabulary the code reasons with; the database enums must say exactly the same.
describe('database enums', () => {
  it.each([
    ['Verdict', DbEnums.Verdict, VERDICTS],
    ['EvidenceStage', DbEnums.EvidenceStage, EVIDENCE_STAGES],
    ['CallOrigin', DbEnums.CallOrigin, CALL_ORIGINS],
    ['CallState', DbEnums.CallState, CALL_STATES],
    ['CampaignState', DbEnums.CampaignState, CAMPAIGN_STATES],
    ['CampaignTargetState', DbEnums.CampaignTargetState, CAMPAIGN_TARGET_STATES],
  ])('%s holds the same values as the domain', (_name, dbEnum, domain) => {
    expect(Object.values(dbEnum)).toEqual([...domain]);
  });
});
