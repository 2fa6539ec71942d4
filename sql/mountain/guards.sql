-- The mountain schema's guards: the refusal helper every RPC uses, and the
-- triggers that keep inputs, builds and history immutable.

-- Refuse with SQLSTATE P0001: message = stable snake_case code, hint = what
-- to do (naming the identity concerned).
create or replace function mountain.refuse(p_code text, p_hint text) returns void
  language plpgsql volatile
  set search_path = ''
  as $$
begin
  raise exception using errcode = 'P0001', message = p_code, hint = p_hint;
end
$$;
grant execute on function mountain.refuse(text, text) to authenticated, service_role;

-- The commands that stage a corrected manifest as the next version, for
-- refusals whose fix is a new version (the same steps `summit resort` names).
create or replace function mountain.restage_hint(p_resort_id text) returns text
  language sql immutable
  set search_path = ''
  as $$
    select format('stage a corrected manifest: summit resort review %s --out draft.json, edit draft.json, '
                  'summit resort review %s --draft draft.json, then summit resort apply %s', p_resort_id, p_resort_id, p_resort_id)
  $$;

-- m<manifest_version>-<graph_version>-<content_sha256>: the identity string
-- meet requests carry and exact replays resolve.
create or replace function mountain.dataset_version(p_manifest_version integer, p_graph_version text, p_content_sha256 text)
  returns text
  language sql immutable
  set search_path = ''
  as $$ select 'm' || p_manifest_version || '-' || p_graph_version || '-' || p_content_sha256 $$;
grant execute on function mountain.dataset_version(integer, text, text) to anon, authenticated, service_role;

-- Rows that must never change once written: built graphs, the publication
-- history, the activation log, snapshots, drafts, geometry overrides.
-- TG_ARGV: [0] the refusal code, [1] what to do instead.
create or replace function mountain.refuse_change() returns trigger
  language plpgsql
  set search_path = ''
  as $$
declare
  v_subject text := '';
begin
  -- One branch per table: a record's fields resolve only when the branch runs.
  if tg_level = 'ROW' then
    if tg_table_name = 'resort_graph_blob' then
      v_subject := format(' (graph %s m%s %s %s, sha256 %s)',
        old.resort_id, old.manifest_version, old.graph_version, old.snapshot_date, old.sha256);
    elsif tg_table_name = 'resort_canonical_publication' then
      v_subject := format(' (publication %s of %s)',
        old.id, mountain.dataset_version(old.manifest_version, old.graph_version, old.content_sha256));
    elsif tg_table_name = 'osm_snapshots' then
      v_subject := format(' (snapshot %s %s)', old.resort_id, old.snapshot_date);
    elsif tg_table_name = 'elevation_snapshots' then
      v_subject := format(' (elevation %s %s %s)', old.resort_id, old.snapshot_date, old.file_name);
    elsif tg_table_name = 'manifest_drafts' then
      v_subject := format(' (draft %s revision %s)', old.resort_id, old.revision);
    end if;
  end if;
  perform mountain.refuse(tg_argv[0], tg_argv[1] || v_subject);
  return null;
end
$$;

drop trigger if exists resort_graph_blob_immutable on mountain.resort_graph_blob;
create trigger resort_graph_blob_immutable before update or delete on mountain.resort_graph_blob
  for each row execute function mountain.refuse_change(
    'graph_blob_immutable', 'A built graph never changes; apply a new manifest version and build that');
drop trigger if exists resort_graph_blob_no_truncate on mountain.resort_graph_blob;
create trigger resort_graph_blob_no_truncate before truncate on mountain.resort_graph_blob
  for each statement execute function mountain.refuse_change(
    'graph_blob_immutable', 'A built graph never changes; apply a new manifest version and build that');

drop trigger if exists publication_immutable on mountain.resort_canonical_publication;
create trigger publication_immutable before update or delete on mountain.resort_canonical_publication
  for each row execute function mountain.refuse_change(
    'publication_immutable', 'Publication history is permanent; publish another identity to move the active pointer');
drop trigger if exists publication_no_truncate on mountain.resort_canonical_publication;
create trigger publication_no_truncate before truncate on mountain.resort_canonical_publication
  for each statement execute function mountain.refuse_change(
    'publication_immutable', 'Publication history is permanent; publish another identity to move the active pointer');

drop trigger if exists activation_immutable on mountain.resort_canonical_activation;
create trigger activation_immutable before update or delete on mountain.resort_canonical_activation
  for each row execute function mountain.refuse_change(
    'activation_log_immutable', 'The activation log is append-only');

drop trigger if exists osm_snapshot_immutable on mountain.osm_snapshots;
create trigger osm_snapshot_immutable before update or delete on mountain.osm_snapshots
  for each row execute function mountain.refuse_change(
    'snapshot_immutable', 'A snapshot is a build input and never changes; ingest the new extract under another snapshot date');

drop trigger if exists elevation_snapshot_immutable on mountain.elevation_snapshots;
create trigger elevation_snapshot_immutable before update or delete on mountain.elevation_snapshots
  for each row execute function mountain.refuse_change(
    'snapshot_immutable', 'A snapshot is a build input and never changes; ingest the new extract under another snapshot date');

drop trigger if exists manifest_draft_immutable on mountain.manifest_drafts;
create trigger manifest_draft_immutable before update or delete on mountain.manifest_drafts
  for each row execute function mountain.refuse_change(
    'draft_immutable', 'Draft revisions are kept as reviewed; a change is a new revision (summit resort review --draft FILE)');

drop trigger if exists geometry_override_append_only on mountain.canonical_geometry_override;
create trigger geometry_override_append_only before update or delete on mountain.canonical_geometry_override
  for each row execute function mountain.refuse_change(
    'geometry_override_append_only', 'Append a newer override for the same kind and name; the latest one wins');

-- A manifest's rows are what its blob was built from: once any build of the
-- manifest exists they are frozen, so publish always validates what was built.
create or replace function mountain.refuse_change_to_built_manifest() returns trigger
  language plpgsql
  set search_path = ''
  as $$
declare
  v_resort text;
  v_version integer;
begin
  -- An update is checked against the manifest it moves from and the one it moves to.
  for v_resort, v_version in
    select x.resort_id, x.manifest_version from (
      select old.resort_id, old.manifest_version where tg_op in ('UPDATE', 'DELETE')
      union all
      select new.resort_id, new.manifest_version where tg_op in ('INSERT', 'UPDATE')) x
  loop
    if exists (select 1 from mountain.resort_graph_blob b
               where b.resort_id = v_resort and b.manifest_version = v_version) then
      perform mountain.refuse('manifest_frozen', format(
        'Manifest %s v%s has been built, so its rows are fixed; apply a new manifest version instead',
        v_resort, v_version));
    end if;
  end loop;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

do $$
declare
  v_table text;
begin
  foreach v_table in array array['canonical_trail', 'canonical_lift', 'canonical_connector', 'canonical_rendezvous_point'] loop
    execute format('drop trigger if exists built_manifest_frozen on mountain.%I', v_table);
    execute format('create trigger built_manifest_frozen before insert or update or delete on mountain.%I
                    for each row execute function mountain.refuse_change_to_built_manifest()', v_table);
  end loop;
end
$$;
