-- Builds and publication. The worker records each build as an immutable blob
-- row (record_resort_graph_blob); publish_canonical_manifest re-validates a
-- staged manifest and the exact built identity, then moves the resort's one
-- active pointer atomically. Publishing an identity that was published before
-- is a rollback to it; history never changes. Service role only.

create or replace function mountain.is_sha256_hex(p_value text) returns boolean
  language sql immutable
  set search_path = ''
  as $$ select coalesce(p_value ~ '^[0-9a-f]{64}$', false) $$;
grant execute on function mountain.is_sha256_hex(text) to authenticated, service_role;

-- The identity of one blob row as JSON (no bytes).
create or replace function mountain.graph_identity(p_blob mountain.resort_graph_blob) returns jsonb
  language sql stable
  set search_path = ''
  as $$
    select jsonb_build_object(
      'resort_id', p_blob.resort_id, 'manifest_version', p_blob.manifest_version,
      'graph_version', p_blob.graph_version, 'snapshot_date', to_char(p_blob.snapshot_date, 'YYYY-MM-DD'),
      'content_sha256', p_blob.sha256, 'blob_sha256', p_blob.blob_sha256,
      'dataset_version', mountain.dataset_version(p_blob.manifest_version, p_blob.graph_version, p_blob.sha256),
      'fingerprint', p_blob.fingerprint, 'node_count', p_blob.node_count, 'edge_count', p_blob.edge_count,
      'compressed_size', p_blob.compressed_size, 'uncompressed_size', p_blob.uncompressed_size)
  $$;
grant execute on function mountain.graph_identity(mountain.resort_graph_blob) to authenticated, service_role;

-- Stores one build. The bytes must hash to p_blob_sha256 (checked here); the
-- content SHA and fingerprint are the builder's. When the tuple was built
-- before, the stored row is returned (cached) if it has the same content and
-- the call is refused if not: a build is a pure function of its inputs.
create or replace function mountain.record_resort_graph_blob(
  p_resort_id text,
  p_manifest_version integer,
  p_snapshot_date date,
  p_graph_version text,
  p_blob bytea,
  p_sha256 text,
  p_blob_sha256 text,
  p_fingerprint text,
  p_node_count integer,
  p_edge_count integer,
  p_uncompressed_size integer,
  p_build_report jsonb default '{}'
) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_existing mountain.resort_graph_blob;
  v_row mountain.resort_graph_blob;
begin
  if not mountain.is_sha256_hex(p_sha256) or not mountain.is_sha256_hex(p_blob_sha256) then
    perform mountain.refuse('invalid_content_sha256', 'SHA-256 values are 64 lowercase hex characters');
  end if;
  if p_blob is null or encode(sha256(p_blob), 'hex') <> p_blob_sha256 then
    perform mountain.refuse('blob_sha256_mismatch', format(
      'The bytes sent for %s v%s do not hash to %s; the transfer is corrupt, build again: summit resort build %s --manifest-version %s',
      p_resort_id, p_manifest_version, p_blob_sha256, p_resort_id, p_manifest_version));
  end if;
  if p_fingerprint is null or p_fingerprint !~ '^[0-9]+:[0-9]+:[0-9a-f]{16}$'
     or p_fingerprint not like p_node_count || ':' || p_edge_count || ':%' then
    perform mountain.refuse('invalid_fingerprint', format(
      'Fingerprint %s is not <nodeCount>:<edgeCount>:<hex16> for %s nodes and %s edges', p_fingerprint, p_node_count, p_edge_count));
  end if;
  if not exists (select 1 from mountain.resort_canonical_manifest where resort_id = p_resort_id and manifest_version = p_manifest_version) then
    perform mountain.refuse('manifest_not_found', format('%s has no manifest v%s; stage one first: summit resort apply %s', p_resort_id, p_manifest_version, p_resort_id));
  end if;
  if not exists (select 1 from mountain.osm_snapshots where resort_id = p_resort_id and snapshot_date = p_snapshot_date) then
    perform mountain.refuse('snapshot_not_found', format('%s has no OSM snapshot dated %s; ingest it first: summit resort ingest %s --osm FILE --snapshot-date %s',
      p_resort_id, p_snapshot_date, p_resort_id, p_snapshot_date));
  end if;

  -- One builder at a time per tuple: the second waits, then finds the first's row.
  perform pg_advisory_xact_lock(hashtextextended(format('mountain.build:%s:%s:%s:%s', p_resort_id, p_manifest_version, p_snapshot_date, p_graph_version), 0));
  select * into v_existing from mountain.resort_graph_blob
  where resort_id = p_resort_id and manifest_version = p_manifest_version
    and snapshot_date = p_snapshot_date and graph_version = p_graph_version;
  if found then
    if v_existing.sha256 <> p_sha256 then
      perform mountain.refuse('graph_blob_exists', format(
        '%s v%s %s %s was already built with content sha256 %s, not %s; builds are immutable: publish the stored one (summit resort publish %s --manifest-version %s --content-sha256 %s), or %s',
        p_resort_id, p_manifest_version, p_graph_version, p_snapshot_date, v_existing.sha256, p_sha256,
        p_resort_id, p_manifest_version, v_existing.sha256, mountain.restage_hint(p_resort_id)));
    end if;
    return mountain.graph_identity(v_existing) || jsonb_build_object('cached', true, 'built_at', v_existing.built_at);
  end if;

  insert into mountain.resort_graph_blob (resort_id, manifest_version, snapshot_date, graph_version, blob, sha256,
    blob_sha256, fingerprint, node_count, edge_count, compressed_size, uncompressed_size, build_report, built_at)
  values (p_resort_id, p_manifest_version, p_snapshot_date, p_graph_version, p_blob, p_sha256, p_blob_sha256,
    p_fingerprint, p_node_count, p_edge_count, octet_length(p_blob), p_uncompressed_size,
    coalesce(p_build_report, '{}'), summit.now())
  returning * into v_row;
  return mountain.graph_identity(v_row) || jsonb_build_object('cached', false, 'built_at', v_row.built_at);
end
$$;

-- Publishes the exact built identity (resort, manifest, graph version,
-- snapshot date, content SHA): re-validates the manifest's counts and names
-- and the blob row, records the publication (once), and moves the active
-- pointer. An identity published before becomes active again: a rollback.
create or replace function mountain.publish_canonical_manifest(
  p_resort_id text,
  p_manifest_version integer,
  p_graph_version text,
  p_snapshot_date date,
  p_content_sha256 text
) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_manifest mountain.resort_canonical_manifest;
  v_blob mountain.resort_graph_blob;
  v_count integer;
  v_problem text;
  v_publication_id bigint;
  v_new boolean := false;
  v_previous bigint;
  v_previous_identity jsonb;
  v_status text;
  v_restage text := mountain.restage_hint(p_resort_id);
begin
  if not mountain.is_sha256_hex(p_content_sha256) then
    perform mountain.refuse('invalid_content_sha256', format(
      'content_sha256 "%s" is not 64 lowercase hex characters; give the sha256 that summit resort build %s --manifest-version %s printed',
      p_content_sha256, p_resort_id, p_manifest_version));
  end if;
  if p_graph_version is null or p_snapshot_date is null or p_manifest_version is null then
    perform mountain.refuse('incomplete_identity', 'Publish needs the exact identity: manifest version, graph version, snapshot date and content sha256');
  end if;
  -- Publishes of one resort run one at a time.
  perform 1 from mountain.resorts where id = p_resort_id for update;
  if not found then
    perform mountain.refuse('resort_not_found', format('There is no resort "%s"; ingest an extract for it first: summit resort ingest %s --osm FILE', p_resort_id, p_resort_id));
  end if;
  select * into v_manifest from mountain.resort_canonical_manifest
  where resort_id = p_resort_id and manifest_version = p_manifest_version;
  if not found then
    perform mountain.refuse('manifest_not_found', format('%s has no manifest v%s; stage one first: summit resort apply %s', p_resort_id, p_manifest_version, p_resort_id));
  end if;

  select count(*) into v_count from mountain.canonical_trail where resort_id = p_resort_id and manifest_version = p_manifest_version;
  if v_count <> v_manifest.expected_trail_count then
    perform mountain.refuse('count_mismatch', format('%s v%s has %s trail rows but expects %s; %s',
      p_resort_id, p_manifest_version, v_count, v_manifest.expected_trail_count, v_restage));
  end if;
  select count(*) into v_count from mountain.canonical_lift where resort_id = p_resort_id and manifest_version = p_manifest_version;
  if v_count <> v_manifest.expected_lift_count then
    perform mountain.refuse('count_mismatch', format('%s v%s has %s lift rows but expects %s; %s',
      p_resort_id, p_manifest_version, v_count, v_manifest.expected_lift_count, v_restage));
  end if;
  select kind || ' "' || coalesce(name, '') || '"' into v_problem from (
    select 'trail' as kind, mountain.identity_name(name) as name from mountain.canonical_trail
    where resort_id = p_resort_id and manifest_version = p_manifest_version
    union all
    select 'lift', mountain.identity_name(name) from mountain.canonical_lift
    where resort_id = p_resort_id and manifest_version = p_manifest_version) rows
  group by kind, name having count(*) > 1 or name is null limit 1;
  if v_problem is not null then
    perform mountain.refuse('invalid_identity_names', format('%s v%s: %s is empty or not unique; %s',
      p_resort_id, p_manifest_version, v_problem, v_restage));
  end if;

  select * into v_blob from mountain.resort_graph_blob
  where resort_id = p_resort_id and manifest_version = p_manifest_version
    and graph_version = p_graph_version and snapshot_date = p_snapshot_date;
  if not found then
    perform mountain.refuse('graph_blob_not_found', format(
      'There is no %s build of %s v%s from the %s snapshot; build it first: summit resort build %s --manifest-version %s --snapshot-date %s, then publish the sha256 it prints',
      p_graph_version, p_resort_id, p_manifest_version, p_snapshot_date, p_resort_id, p_manifest_version, p_snapshot_date));
  end if;
  if v_blob.sha256 <> p_content_sha256 then
    perform mountain.refuse('content_sha256_mismatch', format(
      'The %s build of %s v%s from %s has content sha256 %s, not %s; publish that exact identity: summit resort publish %s --manifest-version %s --content-sha256 %s --snapshot-date %s',
      p_graph_version, p_resort_id, p_manifest_version, p_snapshot_date, v_blob.sha256, p_content_sha256,
      p_resort_id, p_manifest_version, v_blob.sha256, p_snapshot_date));
  end if;

  select id into v_publication_id from mountain.resort_canonical_publication
  where resort_id = p_resort_id and manifest_version = p_manifest_version and snapshot_date = p_snapshot_date
    and graph_version = p_graph_version and content_sha256 = p_content_sha256;
  if not found then
    insert into mountain.resort_canonical_publication (resort_id, manifest_version, snapshot_date, graph_version,
      content_sha256, first_published_at)
    values (p_resort_id, p_manifest_version, p_snapshot_date, p_graph_version, p_content_sha256, summit.now())
    returning id into v_publication_id;
    v_new := true;
  end if;

  select publication_id into v_previous from mountain.resort_canonical_active where resort_id = p_resort_id for update;
  if v_previous is not null then
    select mountain.graph_identity(b) into v_previous_identity
    from mountain.resort_canonical_publication p
    join mountain.resort_graph_blob b on b.resort_id = p.resort_id and b.manifest_version = p.manifest_version
      and b.snapshot_date = p.snapshot_date and b.graph_version = p.graph_version
    where p.id = v_previous;
  end if;

  if v_previous is not distinct from v_publication_id then
    v_status := 'already_active';
  else
    -- Back to an identity older than the active one is a rollback; forward
    -- again to one published before is a reactivation.
    v_status := case when v_new then 'published'
                     when v_previous is not null and v_publication_id < v_previous then 'rolled_back'
                     else 'reactivated' end;
    insert into mountain.resort_canonical_active (resort_id, publication_id, activated_at)
    values (p_resort_id, v_publication_id, summit.now())
    on conflict (resort_id) do update set publication_id = excluded.publication_id, activated_at = excluded.activated_at;
    insert into mountain.resort_canonical_activation (resort_id, publication_id, previous_publication_id, rollback, activated_at)
    values (p_resort_id, v_publication_id, v_previous, v_status = 'rolled_back', summit.now());
  end if;
  update mountain.resort_canonical_manifest set status = 'published', last_validated_at = summit.now()
  where resort_id = p_resort_id and manifest_version = p_manifest_version;

  return mountain.graph_identity(v_blob) || jsonb_build_object(
    'status', v_status, 'publication_id', v_publication_id, 'previous', v_previous_identity);
end
$$;

revoke all on function mountain.record_resort_graph_blob(text, integer, date, text, bytea, text, text, text, integer, integer, integer, jsonb) from public;
revoke all on function mountain.publish_canonical_manifest(text, integer, text, date, text) from public;
grant execute on function mountain.record_resort_graph_blob(text, integer, date, text, bytea, text, text, text, integer, integer, integer, jsonb) to service_role;
grant execute on function mountain.publish_canonical_manifest(text, integer, text, date, text) to service_role;
