import { DeviceText } from './DeviceText';

/**
 * JSON (or text that is not JSON) in a readable block. What it shows mostly came from a device (arguments, raw
 * replies, evidence), so it is device text: isolated, its bidi controls spelt out (JSON.stringify keeps them).
 */
export function JsonBlock({ value, text, label }: { value?: unknown; text?: string; label?: string }) {
  const shown = text ?? JSON.stringify(value, null, 2);
  return (
    <pre className="json" aria-label={label}>
      <DeviceText text={shown} />
    </pre>
  );
}
