import { useState } from 'react';
import { devicesApi } from '../../api/devices-api';
import type { DeviceDetail, IssuedLinkToken } from '@fleet/api-contract';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { Ago, DateTime } from '../../components/Time';
import { useI18n } from '../../i18n/i18n';
import { IssuedTokenCard } from '../devices/IssuedTokenCard';

/** A ListenAI device's link tokens (never their secrets): a new one replaces them all, or revoke them. */
export function LinkTokens({ device, onChange }: { device: DeviceDetail; onChange: () => void }) {
  const { t } = useI18n();
  const [issued, setIssued] = useState<IssuedLinkToken>();
  const [error, setError] = useState<unknown>();
  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
      onChange();
    } catch (err) {
      setError(err);
    }
  };
  const live = device.linkTokens.some((k) => k.revokedAt === null);
  return (
    <Card
      title={t('link.tokens')}
      actions={
        <>
          <GatedButton
            action="device.register"
            quiet
            onClick={() => void act(async () => setIssued(await devicesApi.replaceLinkToken(device.id)))}
          >
            {t('link.new_token')}
          </GatedButton>
          <GatedButton
            action="device.register"
            disabled={!live}
            onClick={() => {
              if (confirm(t('link.revoke_confirm'))) void act(() => devicesApi.revokeLinkTokens(device.id));
            }}
          >
            {t('link.revoke')}
          </GatedButton>
        </>
      }
    >
      {issued && <IssuedTokenCard issued={issued} />}
      <ErrorNote error={error} />
      {device.linkTokens.length === 0 ? (
        <p className="muted">{t('link.no_tokens')}</p>
      ) : (
        <ul className="plain-list" data-testid="link-tokens">
          {device.linkTokens.map((k) => (
            <li key={k.id}>
              <code className="mono">lt_{k.prefix}_…</code>{' '}
              {k.revokedAt ? (
                <Badge tone="bad">{t('link.token_revoked')}</Badge>
              ) : (
                <Badge tone="good">{t('link.token_live')}</Badge>
              )}{' '}
              <span className="muted small">
                {t('link.token_created')} <DateTime at={k.createdAt} /> · {t('link.token_last_used')}{' '}
                <Ago at={k.lastUsedAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
