-- Each applied migration's SHA-256, so that an applied file edited afterwards is refused instead
-- of silently differing between databases. Nullable: rows written before this column, or by an
-- older server during a rolling deploy, get theirs filled by the next run of the migrator.
ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text;
