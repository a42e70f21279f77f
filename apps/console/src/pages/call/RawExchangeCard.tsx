import type { Call, Dialect } from '@fleet/api-contract';
import { Card } from '../../components/Card';
import { JsonBlock } from '../../components/JsonBlock';
import { decodeBase64, prettyJson, rawExchange } from '../../evidence/raw-exchange';
import { replyImages } from '../../evidence/reply-images';
import { payloadOf } from '../../evidence/rows';
import { useI18n } from '../../i18n/i18n';

/** The JSON-RPC exchange as it crossed the wire: the request, and the reply's exact bytes decoded. */
export function RawExchangeCard({ call, dialect }: { call: Call; dialect: Dialect | undefined }) {
  const { t } = useI18n();
  const response = payloadOf(call, 'response');
  const exchange = rawExchange(call.tool, payloadOf(call, 'parameters'), response, dialect);
  const readbacks = payloadOf(call, 'effect')?.readback ?? [];
  const images = exchange.reply ? replyImages(exchange.reply.text) : [];
  return (
    <Card title={t('raw.title')}>
      <h3>{t('raw.request')}</h3>
      {exchange.request ? (
        <JsonBlock text={exchange.request} label={t('raw.request')} />
      ) : (
        <p className="muted">{t('raw.no_request')}</p>
      )}
      <h3>{t('raw.reply')}</h3>
      {exchange.reply ? (
        <>
          <JsonBlock text={exchange.reply.text} label={t('raw.reply')} />
          {!exchange.reply.json && <p className="note">{t('raw.not_json')}</p>}
          {exchange.repaired && <p className="note">{t('raw.repaired', { text: exchange.repaired })}</p>}
          {images.length > 0 && (
            <figure className="reply-images" data-testid="reply-images">
              {images.map((image, i) => (
                <img
                  key={i}
                  src={image.src}
                  alt={t('raw.image', { type: image.mimeType, bytes: image.bytes })}
                />
              ))}
              <figcaption className="muted small">{t('raw.images', { n: images.length })}</figcaption>
            </figure>
          )}
        </>
      ) : (
        <p className="muted">{response?.reason ?? t('raw.no_reply')}</p>
      )}
      {readbacks.length > 0 && (
        <details>
          <summary>{t('raw.readbacks', { n: readbacks.length })}</summary>
          {readbacks.map((r, i) => {
            const raw =
              typeof r === 'object' && r !== null && 'raw' in r && typeof r.raw === 'string'
                ? r.raw
                : undefined;
            return (
              <JsonBlock
                key={i}
                text={raw ? prettyJson(decodeBase64(raw)).text : JSON.stringify(r, null, 2)}
              />
            );
          })}
        </details>
      )}
    </Card>
  );
}
