import { useState } from 'react';
import type { DeviceCatalog, Dialect, Tool } from '@fleet/api-contract';
import { devicesApi } from '../../api/devices-api';
import { Badge } from '../../components/Badge';
import { DeviceText } from '../../components/DeviceText';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { useI18n } from '../../i18n/i18n';
import { isolatedText } from '../../text/device-text';
import { SchemaTable } from './SchemaTable';

/** Every tool the device declared, user-only ones marked, with its schema readable; then the ordering rules. */
export function ToolCatalog({
  catalog,
  dialect,
  onChange,
}: {
  catalog: DeviceCatalog;
  dialect: Dialect;
  onChange: () => void;
}) {
  const { t } = useI18n();
  return (
    <Card
      title={t('device.tools')}
      actions={
        catalog.catalog && (
          <span className="muted mono" title={catalog.catalog.hash}>
            v{catalog.catalog.version} · {catalog.catalog.hash.slice(0, 12)}
          </span>
        )
      }
    >
      {/* DESIGN §4: ListenAI tools declare no audience, so nothing is user-only by the device's word. */}
      {dialect === 'listenai' && (
        <p className="note" data-testid="audience-note">
          {t('tool.no_audience_note')}
        </p>
      )}
      <div className="tool-list" data-testid="tool-catalog">
        {[...catalog.tools, ...catalog.platformTools].map((tool) => (
          <ToolEntry
            key={tool.name}
            deviceId={catalog.deviceId}
            tool={tool}
            platform={tool.position < 0}
            onChange={onChange}
          />
        ))}
      </div>
      {catalog.orderingRules.length > 0 && (
        <>
          <h3>{t('device.ordering_rules')}</h3>
          <ul className="plain-list">
            {catalog.orderingRules.map((r) => (
              <li key={r.id}>
                {t('device.ordering_rule', {
                  tool: isolatedText(r.tool),
                  requires: isolatedText(r.requires),
                  seconds: Math.round(r.maxAgeMs / 1000),
                })}{' '}
                <Badge tone="neutral">{t(`ordering.${r.action}`)}</Badge>{' '}
                <span className="muted">{t(`ordering.source.${r.source}`)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

function ToolEntry({
  deviceId,
  tool,
  platform,
  onChange,
}: {
  deviceId: string;
  tool: Tool;
  platform: boolean;
  onChange: () => void;
}) {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>();
  // DESIGN §1: an operator's read-only marking makes the tool's answer the verified value of its calls.
  const toggleReadOnly = async () => {
    setError(undefined);
    try {
      await devicesApi.markTool(deviceId, tool.name, { readOnly: tool.readOnly === true ? null : true });
      onChange();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <details className="tool" data-tool={tool.name}>
      <summary>
        <code data-testid="tool-name">
          <DeviceText text={tool.name} />
        </code>
        {tool.nameFlags.map((flag) => (
          <Badge key={flag} tone="bad" title={t('tool.flags_hint')}>
            <span data-name-flag={flag}>{t(`tool.flag.${flag}`)}</span>
          </Badge>
        ))}
        {tool.userOnly && (
          <Badge tone="doubt" title={t('tool.user_only_hint')}>
            <span data-testid="user-only">{t('tool.user_only')}</span>
          </Badge>
        )}
        {tool.sensitive && <Badge tone="bad">{t('tool.sensitive')}</Badge>}
        {/* DESIGN §4: what makes it sensitive by default (a confirmation in its description, destructiveHint). */}
        {tool.gatedByDefault !== null && (
          <Badge tone={tool.gated ? 'doubt' : 'neutral'} title={tool.gatedByDefault}>
            <span data-testid="gated-by-default">
              {tool.gated ? t('tool.gated_by_default') : t('tool.default_lifted')}
            </span>
          </Badge>
        )}
        {tool.readOnly === true && (
          <Badge tone="neutral" title={t('tool.read_only_hint')}>
            <span data-testid="read-only">{t('tool.read_only')}</span>
          </Badge>
        )}
        {platform && <Badge tone="neutral">{t('tool.platform')}</Badge>}
        <span className="muted small">
          {' '}
          <DeviceText text={tool.description} />
        </span>
      </summary>
      {tool.gatedByDefault !== null && (
        <p className="note small" data-testid="gated-by-default-reason">
          {tool.gatedBecause ?? tool.gatedByDefault}
        </p>
      )}
      {!platform && (
        <p>
          <GatedButton
            action="tool.mark"
            quiet
            title={t('tool.read_only_hint')}
            data-testid="toggle-read-only"
            onClick={() => void toggleReadOnly()}
          >
            {tool.readOnly === true ? t('tool.unmark_read_only') : t('tool.mark_read_only')}
          </GatedButton>
        </p>
      )}
      <ErrorNote error={error} />
      <SchemaTable schema={tool.inputSchema} />
    </details>
  );
}
