import { buildEspImage } from '../../test/esp-image';
import { parseEspAppImage } from './esp-app-image';

describe('the ESP app image parser', () => {
  it('reads the chip from the image header and version, project and IDF from the app descriptor', () => {
    const parsed = parseEspAppImage(buildEspImage({ version: '2.0.1', project: 'xiaozhi', chipId: 5 }));
    expect(parsed).toEqual({
      ok: true,
      image: expect.objectContaining({
        chip: 'esp32c3',
        chipId: 5,
        version: '2.0.1',
        projectName: 'xiaozhi',
        idfVersion: 'v5.4.1',
        compileDate: 'Jan  1 2026',
        segmentCount: 3,
      }),
    });
  });

  it('refuses what is not an app image: wrong magic, no descriptor, too short, unknown chip', () => {
    expect(parseEspAppImage(buildEspImage({ magic: 0x7f }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/0xe9/),
    });
    expect(parseEspAppImage(buildEspImage({ descMagic: 0 }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/descriptor/),
    });
    expect(parseEspAppImage(Buffer.alloc(100, 0xe9))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/too short/),
    });
    expect(parseEspAppImage(buildEspImage({ chipId: 999 }))).toMatchObject({
      ok: false,
      reason: 'unknown chip id 999',
    });
  });

  it('refuses a descriptor whose text fields hold non-printable bytes', () => {
    const image = buildEspImage();
    image[32 + 48] = 0x01; // project_name
    expect(parseEspAppImage(image)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/projectName/),
    });
  });
});
