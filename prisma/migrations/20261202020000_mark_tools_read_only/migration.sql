-- DESIGN §1: what is a read tool is explicit, and an operator's marking is one of the ways. NULL: no marking.
-- A marking may now say only "read-only", so "sensitive" is NULL when the operator did not mark it (DESIGN §4:
-- NULL is no marking, false lifts a description's default). Column grants follow the table's (fleet_app keeps
-- SELECT, INSERT, UPDATE, DELETE on tool_marking), so no GRANT is needed here.
ALTER TABLE "tool_marking" ALTER COLUMN "sensitive" DROP NOT NULL;
ALTER TABLE "tool_marking" ADD COLUMN "read_only" BOOLEAN;
