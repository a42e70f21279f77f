import { z } from 'zod';

/** xiaozhi §1.4: audio parameters as both sides announce them. */
export const audioParamsSchema = z.looseObject({
  format: z.string(),
  sample_rate: z.number(),
  channels: z.number(),
  frame_duration: z.number(),
});
export type AudioParams = z.infer<typeof audioParamsSchema>;

/** xiaozhi §2.2: glyph_push on tts sentence_start and stt (validated by the device; bad glyphs drop only the glyphs). */
export const glyphPushSchema = z.looseObject({
  v: z.number(),
  bundle: z.string(),
  size: z.number(),
  bpp: z.number(),
  glyphs: z
    .array(
      z.looseObject({
        codepoint: z.number(),
        adv_w: z.number(),
        box_w: z.number().max(64),
        box_h: z.number().max(64),
        ofs_x: z.number(),
        ofs_y: z.number(),
        bitmap: z.string(),
      }),
    )
    .max(64),
});
export type GlyphPush = z.infer<typeof glyphPushSchema>;

export const jsonObjectSchema = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof jsonObjectSchema>;
