-- «Populares ahora» sums the tickets of the sales paid in the last days: find those sales by paid_at.
CREATE INDEX sales_paid_at_idx ON sales (paid_at) WHERE status = 'paid';
