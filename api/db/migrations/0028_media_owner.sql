-- An uploaded picture belongs to one offer: deleting the offer deletes its files, and an archived
-- offer's files are no longer served (readMedia in api/services/images.ts).
ALTER TABLE media_files ADD COLUMN offer_id uuid REFERENCES offers(id) ON DELETE CASCADE;
UPDATE media_files m SET offer_id = i.offer_id
FROM offer_images i, jsonb_array_elements(i.variants) v
WHERE v->>'url' = '/api/v0/media/' || m.id::text || '.webp';
-- Files of offers deleted before now: no offer shows them (an organisation's logo may still).
DELETE FROM media_files m
WHERE m.offer_id IS NULL AND NOT EXISTS (SELECT 1 FROM organizations o WHERE o.logo LIKE '%' || m.id::text || '%');
CREATE INDEX media_files_offer_idx ON media_files (offer_id);
