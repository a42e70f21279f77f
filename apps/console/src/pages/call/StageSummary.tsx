import type { ReactNode } from 'react';
import type { EvidenceRow } from '@fleet/api-contract';
import { DeviceText } from '../../components/DeviceText';
import { Facts } from '../../components/Facts';
import { JsonBlock } from '../../components/JsonBlock';
import { DateTime } from '../../components/Time';
import { useI18n } from '../../i18n/i18n';

type ValidRow = Extract<EvidenceRow, { skipped: false; valid: true }>;

/** What one stage recorded, in labelled facts (the row as stored is one click away). */
export function StageSummary({ row }: { row: ValidRow }) {
  const { t } = useI18n();
  const yes = (b: boolean) => (b ? t('common.yes') : t('common.no'));
  let items: [string, ReactNode][];
  switch (row.stage) {
    case 'discovery': {
      const p = row.payload;
      items = [
        [t('device.board'), <DeviceText text={p.board ?? '—'} />],
        [t('device.firmware'), <DeviceText text={p.firmwareVersion ?? '—'} />],
        [t('device.catalog'), p.catalog ? `v${p.catalog.version} · ${p.catalog.hash.slice(0, 12)}` : '—'],
        [
          t('evidence.tool_declared'),
          p.tool ? (
            <>
              <DeviceText text={p.tool.name} />
              {p.tool.userOnly ? ` (${t('tool.user_only')})` : ''}
            </>
          ) : (
            t('evidence.tool_missing')
          ),
        ],
      ];
      break;
    }
    case 'decision': {
      const p = row.payload;
      items = [
        [t('call.origin'), t(`origin.${p.requestedBy.origin}`)],
        [t('evidence.outcome'), t(`decision.${p.outcome}`)],
        [
          t('evidence.rules'),
          p.rules.length === 0 ? (
            '—'
          ) : (
            <ul className="plain-list">
              {p.rules.map((r, i) => (
                <li key={i}>
                  <code>{r.rule}</code> → {t(`rule.${r.result}`)}
                  {r.detail ? ': ' : ''}
                  <DeviceText text={r.detail} />
                </li>
              ))}
            </ul>
          ),
        ],
      ];
      if (p.priorState)
        items.push([
          t('evidence.prior_state'),
          <>
            <code>
              <DeviceText text={p.priorState.tool} />
            </code>{' '}
            <DateTime at={p.priorState.at} />
          </>,
        ]);
      if (p.approval)
        items.push([
          t('call.approval'),
          <>
            {t(`approval.state.${p.approval.state}`)}
            {p.approval.reason ? ': ' : ''}
            <DeviceText text={p.approval.reason} />
          </>,
        ]);
      if (p.reason) items.push([t('call.reason'), <DeviceText text={p.reason} />]);
      break;
    }
    case 'parameters': {
      const p = row.payload;
      items = [
        [
          t('evidence.valid'),
          p.validation.ok ? (
            t('common.yes')
          ) : (
            <>
              {t('common.no')}
              {p.validation.errors.length ? ': ' : ''}
              <DeviceText text={p.validation.errors.join('; ')} />
            </>
          ),
        ],
        [
          t('evidence.limits'),
          p.limits.length === 0 ? (
            '—'
          ) : (
            <DeviceText text={p.limits.map((l) => `${l.rule}: ${yes(l.ok)}`).join('; ')} />
          ),
        ],
        [
          t('evidence.firmware_would_do'),
          p.firmwareWouldDo.length === 0 ? '—' : <JsonBlock value={p.firmwareWouldDo} />,
        ],
      ];
      break;
    }
    case 'response': {
      const p = row.payload;
      items = [
        [t('evidence.outcome'), t(`response.${p.outcome}`)],
        [t('evidence.jsonrpc_id'), p.jsonrpcId ?? '—'],
        [t('evidence.latency'), p.latencyMs !== undefined ? `${p.latencyMs} ms` : '—'],
        [t('evidence.is_error'), p.isError === undefined ? '—' : yes(p.isError)],
        [t('evidence.reply_text'), <DeviceText text={p.text ?? p.errorText ?? p.reason ?? '—'} />],
      ];
      break;
    }
    case 'effect': {
      const p = row.payload;
      items = [
        [t('evidence.method'), t(`effect.${p.method}`)],
        [t('evidence.conclusion'), <DeviceText text={p.conclusion} />],
      ];
      if (p.expected !== undefined) items.push([t('evidence.expected'), <JsonBlock value={p.expected} />]);
      if (p.observed !== undefined) items.push([t('evidence.observed'), <JsonBlock value={p.observed} />]);
      break;
    }
  }
  return <Facts items={items} />;
}
