-- AlterTable
ALTER TABLE "incident_events" ADD COLUMN     "ends_at" TIMESTAMPTZ(3);

-- Silenced and snoozed events held the end of the silence or snooze as ISO text in their note
-- ("no webhooks: silenced until <iso> (<reason>)", "until <iso>: <note>"): move it into ends_at
-- and keep the reason (or note) alone, as the evaluator and snoozeIncident now write them.
UPDATE "incident_events" AS e
SET "ends_at" = m.parts[1]::timestamptz, "note" = m.parts[2]
FROM (
  SELECT "project_id", "id", regexp_match(
    "note",
    CASE "kind"
      WHEN 'silenced' THEN '^no webhooks: silenced until (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) \((.*)\)$'
      ELSE '^until (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)(?:: (.*))?$'
    END
  ) AS parts
  FROM "incident_events"
  WHERE "kind" IN ('silenced', 'snoozed') AND "note" IS NOT NULL
) AS m
WHERE e."project_id" = m."project_id" AND e."id" = m."id" AND m.parts IS NOT NULL;
