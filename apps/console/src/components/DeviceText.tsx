import { controlMarker, revealControls } from '../text/device-text';

/**
 * Any text a device supplied, shown isolated (`<bdi>`: it cannot reorder the words around it) with its bidi
 * control characters made visible as ⟨U+202E⟩ (they reorder nothing). The one way the console renders device
 * text: tool names and descriptions, board and firmware names, replies, reasons that quote them.
 */
export function DeviceText({ text, mono }: { text: string | null | undefined; mono?: boolean }) {
  if (text === null || text === undefined) return null;
  return (
    <bdi className={mono ? 'device-text mono' : 'device-text'} data-device-text="">
      {revealControls(text).map((piece, i) =>
        'control' in piece ? (
          <span key={i} className="bidi-control" data-control={piece.control}>
            {controlMarker(piece.control)}
          </span>
        ) : (
          piece.text
        ),
      )}
    </bdi>
  );
}
