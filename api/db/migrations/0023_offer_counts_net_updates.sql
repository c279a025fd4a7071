-- An UPDATE of offers nets the rows that stop counting against those that start: an edit that
-- moves no count (a title, a description, a rank) writes nothing and locks nothing, where 0022
-- took one away from and gave one back to four rows, the total among them, so every such edit
-- queued behind any other on ('', '') and left eight dead row versions (PGlite never vacuums).
-- Key order and HAVING as in 0022: writers that do move a count still meet at ('', '') first.
CREATE OR REPLACE FUNCTION offer_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $counts$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO offer_counts (category, province, n)
      SELECT coalesce(category, ''), coalesce(province, ''), count(*) FROM new_rows WHERE status = 'active'
      GROUP BY GROUPING SETS ((category, province), (category), (province), ()) HAVING count(*) > 0 ORDER BY 1, 2
      ON CONFLICT (category, province) DO UPDATE SET n = offer_counts.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO offer_counts (category, province, n)
      SELECT coalesce(category, ''), coalesce(province, ''), -count(*) FROM old_rows WHERE status = 'active'
      GROUP BY GROUPING SETS ((category, province), (category), (province), ()) HAVING count(*) > 0 ORDER BY 1, 2
      ON CONFLICT (category, province) DO UPDATE SET n = offer_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO offer_counts (category, province, n)
      SELECT coalesce(category, ''), coalesce(province, ''), sum(moved) FROM (
        SELECT category, province, -1 AS moved FROM old_rows WHERE status = 'active'
        UNION ALL
        SELECT category, province, 1 FROM new_rows WHERE status = 'active') rows
      GROUP BY GROUPING SETS ((category, province), (category), (province), ()) HAVING sum(moved) <> 0 ORDER BY 1, 2
      ON CONFLICT (category, province) DO UPDATE SET n = offer_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL; END
$counts$;
