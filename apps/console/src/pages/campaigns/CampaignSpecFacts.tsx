import type { CampaignView } from '@fleet/api-contract';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Card } from '../../components/Card';
import { DeviceText } from '../../components/DeviceText';
import { Facts } from '../../components/Facts';
import { JsonBlock } from '../../components/JsonBlock';
import { DateTime } from '../../components/Time';
import { useI18n } from '../../i18n/i18n';

export function CampaignSpecFacts({ campaign: c }: { campaign: CampaignView }) {
  const { t } = useI18n();
  const action = c.action;
  return (
    <Card title={t('campaign.settings')}>
      <Facts
        items={[
          [t('campaign.selector'), <JsonBlock value={c.selector} />],
          [
            t('campaign.action'),
            action.kind === 'tool' ? (
              <>
                <code>
                  <DeviceText text={action.tool} />
                </code>{' '}
                <JsonBlock value={action.arguments} />
              </>
            ) : action.kind === 'capability' ? (
              <span data-testid="campaign-capability">
                {`${t('campaign.action.capability')}: `}
                <code>
                  <DeviceText text={action.capability} />
                </code>{' '}
                <JsonBlock value={action.value} />
              </span>
            ) : action.kind === 'firmware' ? (
              <>
                {`${t('campaign.action.firmware')} (${t(`campaign.via.${action.via}`)})`}{' '}
                <Link to={paths.release(action.firmwareId)}>{t('release.link')}</Link>
              </>
            ) : action.kind === 'announcement' ? (
              <>
                {`${t('campaign.action.announcement')} (${action.how}, ${action.language})`}{' '}
                <DeviceText text={action.text} />
              </>
            ) : (
              t(`campaign.action.${action.kind}`)
            ),
          ],
          [
            t('campaign.rollout'),
            t('campaign.rollout_summary', {
              batch: c.rollout.batchSize,
              inflight: c.rollout.maxInFlight,
              rate: c.rollout.ratePerMinute ?? '∞',
            }),
          ],
          [
            t('campaign.abort_rule'),
            t('campaign.abort_hint', {
              percent: Math.round(c.abortRule.failureRate * 100),
              min: c.abortRule.minDevices,
            }),
          ],
          [t('campaign.done_when'), t(`campaign.done_when.${c.doneWhen}`)],
          [t('campaign.deviceTimeoutS'), `${c.deviceTimeoutS} s`],
          [t('campaign.retries'), c.retries],
          [t('campaign.created'), <DateTime at={c.createdAt} />],
          [t('campaign.started'), <DateTime at={c.startedAt} />],
          [t('campaign.finished'), <DateTime at={c.finishedAt} />],
        ]}
      />
    </Card>
  );
}
