import type { IssuedLinkToken } from '@fleet/api-contract';
import { Card } from '../../components/Card';
import { Facts } from '../../components/Facts';
import { useI18n } from '../../i18n/i18n';

/** A link token just issued: shown this once (the API keeps only its hash), with how the device presents it. */
export function IssuedTokenCard({ issued }: { issued: IssuedLinkToken }) {
  const { t } = useI18n();
  return (
    <Card title={t('register.token_title')} className="issued-token">
      <p className="note">{t('register.token_once')}</p>
      <Facts
        items={[
          [t('device.id'), <span className="mono">{issued.deviceId}</span>],
          [
            t('register.token'),
            <code className="mono secret" data-testid="link-token">
              {issued.token.secret}
            </code>,
          ],
          [t('register.link_url'), <code className="mono">{issued.linkUrl}</code>],
          [t('register.how'), <code className="mono">{t('register.how_value')}</code>],
        ]}
      />
      <button type="button" onClick={() => void navigator.clipboard?.writeText(issued.token.secret)}>
        {t('register.copy')}
      </button>
    </Card>
  );
}
