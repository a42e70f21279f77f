import { z } from 'zod';

const num = z.number().optional();

/**
 * xiaozhi §4.2: Board::GetSystemInfoJson(), the check-in body and the self.get_system_info result. Every part is
 * optional and unknown fields are kept; the heap size may be a string (the firmware sends one) or a number.
 * Issues from this schema become complaints, not refusals.
 */
export const systemInfoSchema = z.looseObject({
  version: num,
  language: z.string().optional(),
  flash_size: num,
  minimum_free_heap_size: z.union([z.string(), z.number()]).optional(),
  mac_address: z.string().optional(),
  uuid: z.string().optional(),
  chip_model_name: z.string().optional(),
  chip_info: z.looseObject({ model: num, cores: num, revision: num, features: num }).optional(),
  application: z.looseObject({
    name: z.string().optional(),
    version: z.string(),
    compile_time: z.string().optional(),
    idf_version: z.string().optional(),
    elf_sha256: z.string().optional(),
  }),
  partition_table: z
    .array(z.looseObject({ label: z.string(), type: num, subtype: num, address: num, size: num }))
    .optional(),
  ota: z.looseObject({ label: z.string() }).optional(),
  display: z.looseObject({ monochrome: z.boolean().optional(), width: num, height: num }).optional(),
  board: z
    .looseObject({
      type: z.string(),
      name: z.string().optional(),
      manufacturer: z.string().optional(),
      mac: z.string().optional(),
      ip: z.string().optional(),
      ssid: z.string().optional(),
      rssi: num,
      channel: num,
    })
    .optional(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `__DATE__ "T" __TIME__ "Z"` (e.g. `Aug  8 2026T08:33:45Z`, the day space-padded) as ISO 8601;
 * an ISO string is taken as it is; anything else is undefined.
 */
export function parseCompileTime(text: string): string | undefined {
  const m = /^([A-Z][a-z]{2}) ([ \d]\d) (\d{4})T(\d{2}):(\d{2}):(\d{2})Z$/.exec(text);
  if (m) {
    const month = MONTHS.indexOf(m[1] ?? '');
    if (month < 0) return undefined;
    const date = new Date(
      Date.UTC(Number(m[3]), month, Number((m[2] ?? '').trim()), Number(m[4]), Number(m[5]), Number(m[6])),
    );
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  return z.iso.datetime({ offset: true }).safeParse(text).success ? new Date(text).toISOString() : undefined;
}
