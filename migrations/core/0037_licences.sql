-- Licences (issue 35, docs/decisions/0042-versions-and-licences.md): an SPDX identifier per item
-- (LicenseRef-All-Rights-Reserved for all rights reserved). Items from before stay "not specified"
-- (NULL) until their owner chooses; new uploads default to CC-BY-4.0.
ALTER TABLE content ADD COLUMN license TEXT;
CREATE INDEX content_license ON content (license, kind, created_at) WHERE license IS NOT NULL;
