-- Every listing's count in one row. offer_counts held one row per (category, province), so the
-- unfiltered listing, the one most asked for, summed all 450 of them on every page (a category
-- alone summed 50, a region 9). Rows with '' for the category, the province or both now hold
-- those totals (no category or province is ''), kept by the same statement triggers, and a
-- listing reads one row by its key.
DELETE FROM offer_counts;
INSERT INTO offer_counts (category, province, n)
  SELECT coalesce(category, ''), coalesce(province, ''), count(*) FROM offers WHERE status = 'active'
  GROUP BY GROUPING SETS ((category, province), (category), (province), ());

-- Rows in key order, and ('', '') first: every statement that changes an active offer locks the
-- total first, so two such statements queue there and cannot deadlock on the rows after it.
-- A statement that changes no active offer writes nothing (HAVING), not even a zero.
CREATE OR REPLACE FUNCTION offer_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $counts$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO offer_counts (category, province, n)
      SELECT coalesce(category, ''), coalesce(province, ''), -count(*) FROM old_rows WHERE status = 'active'
      GROUP BY GROUPING SETS ((category, province), (category), (province), ()) HAVING count(*) > 0 ORDER BY 1, 2
      ON CONFLICT (category, province) DO UPDATE SET n = offer_counts.n + EXCLUDED.n; END IF; -- rows that stop counting
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO offer_counts (category, province, n)
      SELECT coalesce(category, ''), coalesce(province, ''), count(*) FROM new_rows WHERE status = 'active'
      GROUP BY GROUPING SETS ((category, province), (category), (province), ()) HAVING count(*) > 0 ORDER BY 1, 2
      ON CONFLICT (category, province) DO UPDATE SET n = offer_counts.n + EXCLUDED.n; END IF; -- rows that start counting
  RETURN NULL; END
$counts$;
