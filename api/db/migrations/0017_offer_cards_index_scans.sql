-- offer_cards() looks up each card's price options and ratings with index scans, not bitmap scans.
-- The planner picks a bitmap heap scan for a few rows per offer, and every rescan of one asks the
-- storage manager for the table's length: an lseek(SEEK_END) per card and table, which PGlite's
-- Node file system answers with an fstat() on the server's own thread. A 24-card page made 48 of
-- them; at 100,000 offers they were a tenth of the server's CPU for a listing (profiled). An index
-- scan reads the same few rows and never asks.
ALTER FUNCTION offer_cards(uuid[], integer, boolean) SET enable_bitmapscan = off;
