import { checkBoardFit } from './board-fit';
import { buildEspImage } from './build-esp-image';
import { verifyEspImage } from './verify-esp-image';

const MB = 1024 * 1024;

function verified(spec: { chipId?: number; flashSize?: number }) {
  const result = verifyEspImage(buildEspImage({ version: '2.5.0', ...spec }));
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('whether an image fits the boards it is registered for', () => {
  it("fits a board whose devices report the image's chip (in any spelling) and at least its flash", () => {
    const fit = checkBoardFit(verified({ chipId: 9, flashSize: 2 }), [
      { board: 'bread-compact-wifi', chips: ['ESP32-S3'], smallestFlashBytes: 16 * MB },
    ]);
    expect(fit).toEqual({ failures: [], warnings: [] });
  });

  it('refuses a chip other than the one devices of a board report, naming the board', () => {
    const fit = checkBoardFit(verified({ chipId: 5 }), [
      { board: 'bread-compact-wifi', chips: ['esp32s3'], smallestFlashBytes: undefined },
    ]);
    expect(fit.failures).toEqual([
      expect.objectContaining({
        kind: 'chip',
        board: 'bread-compact-wifi',
        expected: 'esp32s3',
        found: 'esp32c3',
      }),
    ]);
  });

  it('refuses an image whose header claims more flash than a device of the board has', () => {
    const fit = checkBoardFit(verified({ flashSize: 4 }), [
      { board: 'small-board', chips: ['esp32s3'], smallestFlashBytes: 4 * MB },
    ]);
    expect(fit.failures).toEqual([
      expect.objectContaining({ kind: 'flash_size', expected: 'at most 4 MB', found: '16 MB' }),
    ]);
  });

  it('warns, without refusing, about a board no device has reported yet', () => {
    const fit = checkBoardFit(verified({}), [
      { board: 'brand-new', chips: [], smallestFlashBytes: undefined },
    ]);
    expect(fit.failures).toEqual([]);
    expect(fit.warnings).toEqual([expect.stringContaining('brand-new')]);
  });
});
