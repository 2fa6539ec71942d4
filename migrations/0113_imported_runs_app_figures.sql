-- The recording app's own figures for a run, where its file carries them (Slopes
-- Metadata.xml: vertical, top speed, average speed, distance), kept beside
-- Summit's. The stored figures and every aggregate are Summit's own, measured by
-- the same rules for every format; these are for comparison and display.
alter table activity.imported_runs
  add column app_figures jsonb check (app_figures is null or jsonb_typeof(app_figures) = 'object');
