/** JSON (or text that is not JSON) in a readable block. */
export function JsonBlock({ value, text, label }: { value?: unknown; text?: string; label?: string }) {
  const shown = text ?? JSON.stringify(value, null, 2);
  return (
    <pre className="json" aria-label={label}>
      {shown}
    </pre>
  );
}
