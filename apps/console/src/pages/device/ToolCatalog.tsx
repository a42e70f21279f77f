import type { DeviceCatalog, Dialect, Tool } from '@fleet/api-contract';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { useI18n } from '../../i18n/i18n';
import { SchemaTable } from './SchemaTable';

/** Every tool the device declared, user-only ones marked, with its schema readable; then the ordering rules. */
export function ToolCatalog({ catalog, dialect }: { catalog: DeviceCatalog; dialect: Dialect }) {
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
          <ToolEntry key={tool.name} tool={tool} platform={tool.position < 0} />
        ))}
      </div>
      {catalog.orderingRules.length > 0 && (
        <>
          <h3>{t('device.ordering_rules')}</h3>
          <ul className="plain-list">
            {catalog.orderingRules.map((r) => (
              <li key={r.id}>
                {t('device.ordering_rule', {
                  tool: r.tool,
                  requires: r.requires,
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

function ToolEntry({ tool, platform }: { tool: Tool; platform: boolean }) {
  const { t } = useI18n();
  return (
    <details className="tool" data-tool={tool.name}>
      <summary>
        <code>{tool.name}</code>
        {tool.userOnly && (
          <Badge tone="doubt" title={t('tool.user_only_hint')}>
            <span data-testid="user-only">{t('tool.user_only')}</span>
          </Badge>
        )}
        {tool.sensitive && <Badge tone="bad">{t('tool.sensitive')}</Badge>}
        {platform && <Badge tone="neutral">{t('tool.platform')}</Badge>}
        <span className="muted small"> {tool.description}</span>
      </summary>
      <SchemaTable schema={tool.inputSchema} />
    </details>
  );
}
