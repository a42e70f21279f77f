-- AlterTable
ALTER TABLE "tool" ADD COLUMN "name_flags" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Tools discovered before: the same flags discovery now notes (libs/domain toolNameFlags), in SQL.
UPDATE "tool" SET "name_flags" = array_remove(ARRAY[
    CASE WHEN "name" !~ '^[A-Za-z0-9._-]{1,128}$' THEN 'outside_mcp_names' END,
    CASE WHEN "name" ~ '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]' THEN 'bidi_control' END,
    CASE WHEN regexp_replace("name", '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]', '', 'g')
              ~ '[\u00AD\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200D\u2060-\u2064\u206A-\u206F\uFEFF\uFFF9-\uFFFB]'
         THEN 'invisible_character' END
  ], NULL);
