import { Client } from 'pg';
import { TEST_POSTGRES_URL } from '@fleet/testing';
import {
  partitionOf,
  partitionSql,
  CALL_ORIGINS,
  CALL_STATES,
  CAMPAIGN_STATES,
  CAMPAIGN_TARGET_STATES,
  CHAIN_LINKS,
  VERDICTS,
} from '@fleet/domain';
import { DbEnums } from './index';

// The domain lib is the vocabulary the code reasons with; the database enums must say exactly the same.
describe('database enums', () => {
  it.each([
    ['Verdict', DbEnums.Verdict, VERDICTS],
    // The five stages and the seal link (DESIGN §6: a call's seal is a link of its chain).
    ['EvidenceStage', DbEnums.EvidenceStage, CHAIN_LINKS],
    ['CallOrigin', DbEnums.CallOrigin, CALL_ORIGINS],
    ['CallState', DbEnums.CallState, CALL_STATES],
    ['CampaignState', DbEnums.CampaignState, CAMPAIGN_STATES],
    ['CampaignTargetState', DbEnums.CampaignTargetState, CAMPAIGN_TARGET_STATES],
  ])('%s holds the same values as the domain', (_name, dbEnum, domain) => {
    expect(Object.values(dbEnum)).toEqual([...domain]);
  });
});

describe('partitionSql', () => {
  it('computes in Postgres exactly what partitionOf computes in the services', async () => {
    const client = new Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    const macs = Array.from(
      { length: 200 },
      (_, i) =>
        `a0:85:e3:f4:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
    );
    const { rows } = await client.query<{ id: string; p: number }>(
      `SELECT id, ${partitionSql('id')} AS p FROM unnest($1::text[]) AS id`,
      [macs],
    );
    await client.end();
    expect(rows.map((r) => r.p)).toEqual(macs.map(partitionOf));
  });
});
