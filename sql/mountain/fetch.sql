-- get_resort_graph: how clients fetch a resort's canonical graph.
--
--   default                  the active publication: 'fetch' with the blob, or
--                            'cache_valid' when the cached manifest version AND
--                            content sha256 both equal the active identity
--   exact replay             manifest_version + graph_version + content_sha256
--                            (a meet's full dataset identity): that identity
--                            from publication history, active or not
--   manifest only (legacy)   the newest publication of that manifest, with
--                            exact = false: it never satisfies an exact match
--
-- Answers carry status ('fetch', 'cache_valid', 'not_found',
-- 'no_canonical_dataset'), the identity served, the 'current' (active)
-- identity and 'status_ref', the newest status sidecar of the identity served.
-- Callers check status. The blob is base64 of the raw-deflated canonical
-- JSON; verify it (blob_sha256, content_sha256, fingerprint) before use.
-- Runs as the caller: RLS shows only published identities.

-- The newest status sidecar of one identity, with whether it is usable now
-- (observed at most 120 s in the future, not yet expired).
create or replace function mountain.status_reference(
  p_resort_id text, p_manifest_version integer, p_graph_version text, p_content_sha256 text
) returns jsonb
  language sql stable
  set search_path = ''
  as $$
    select jsonb_build_object(
      'resort_id', s.resort_id, 'hour_key', s.hour_key, 'manifest_version', s.manifest_version,
      'graph_version', s.graph_version, 'content_sha256', s.content_sha256, 'source', s.source,
      'observed_at', s.observed_at, 'expires_at', s.expires_at,
      'usable', s.observed_at <= summit.now() + interval '120 seconds' and summit.now() < s.expires_at)
    from mountain.resort_status s
    where s.resort_id = p_resort_id and s.manifest_version = p_manifest_version
      and s.graph_version = p_graph_version and s.content_sha256 = p_content_sha256
    order by s.observed_at desc
    limit 1
  $$;
grant execute on function mountain.status_reference(text, integer, text, text) to authenticated, service_role;

create or replace function mountain.get_resort_graph(
  p_resort_id text,
  p_cached_manifest_version integer default null,
  p_cached_content_sha256 text default null,
  p_manifest_version integer default null,
  p_graph_version text default null,
  p_content_sha256 text default null,
  p_snapshot_date date default null
) returns jsonb
  language plpgsql stable
  set search_path = ''
  as $$
declare
  v_current mountain.resort_graph_blob;
  v_current_identity jsonb;
  v_served mountain.resort_graph_blob;
  v_exact boolean;
  v_requested jsonb;
begin
  if p_cached_content_sha256 is not null and not mountain.is_sha256_hex(p_cached_content_sha256) then
    perform mountain.refuse('invalid_content_sha256', format(
      'cached_content_sha256 "%s" is not 64 lowercase hex characters', p_cached_content_sha256));
  end if;
  if p_content_sha256 is not null and not mountain.is_sha256_hex(p_content_sha256) then
    perform mountain.refuse('invalid_content_sha256', format(
      'content_sha256 "%s" is not 64 lowercase hex characters; an exact replay needs the full 64-character sha', p_content_sha256));
  end if;
  if (p_content_sha256 is not null or p_graph_version is not null)
     and (p_content_sha256 is null or p_graph_version is null or p_manifest_version is null) then
    perform mountain.refuse('incomplete_identity',
      'An exact replay needs manifest_version, graph_version and content_sha256 together; give all three or only a manifest_version');
  end if;

  select b.* into v_current
  from mountain.resort_canonical_active a
  join mountain.resort_canonical_publication p on p.id = a.publication_id
  join mountain.resort_graph_blob b on b.resort_id = p.resort_id and b.manifest_version = p.manifest_version
   and b.snapshot_date = p.snapshot_date and b.graph_version = p.graph_version
  where a.resort_id = p_resort_id;
  if found then
    v_current_identity := mountain.graph_identity(v_current) - 'compressed_size' - 'uncompressed_size';
  end if;

  if p_content_sha256 is not null then
    -- Exact replay from history.
    v_exact := true;
    select b.* into v_served
    from mountain.resort_canonical_publication p
    join mountain.resort_graph_blob b on b.resort_id = p.resort_id and b.manifest_version = p.manifest_version
     and b.snapshot_date = p.snapshot_date and b.graph_version = p.graph_version
    where p.resort_id = p_resort_id and p.manifest_version = p_manifest_version
      and p.graph_version = p_graph_version and p.content_sha256 = p_content_sha256
      and (p_snapshot_date is null or p.snapshot_date = p_snapshot_date);
  elsif p_manifest_version is not null then
    -- Manifest-only (legacy): the newest publication of that manifest.
    v_exact := false;
    select b.* into v_served
    from mountain.resort_canonical_publication p
    join mountain.resort_graph_blob b on b.resort_id = p.resort_id and b.manifest_version = p.manifest_version
     and b.snapshot_date = p.snapshot_date and b.graph_version = p.graph_version
    where p.resort_id = p_resort_id and p.manifest_version = p_manifest_version
    order by p.first_published_at desc, p.id desc
    limit 1;
  else
    if v_current_identity is null then
      return jsonb_build_object('status', 'no_canonical_dataset', 'resort_id', p_resort_id, 'current', null);
    end if;
    if p_cached_manifest_version = v_current.manifest_version and p_cached_content_sha256 = v_current.sha256 then
      return v_current_identity || jsonb_build_object(
        'status', 'cache_valid', 'exact', true, 'current', v_current_identity,
        'status_ref', mountain.status_reference(p_resort_id, v_current.manifest_version, v_current.graph_version, v_current.sha256));
    end if;
    v_exact := true;
    v_served := v_current;
  end if;

  if v_served.resort_id is null then
    v_requested := jsonb_strip_nulls(jsonb_build_object('manifest_version', p_manifest_version,
      'graph_version', p_graph_version, 'content_sha256', p_content_sha256,
      'snapshot_date', to_char(p_snapshot_date, 'YYYY-MM-DD')));
    return jsonb_build_object('status', 'not_found', 'resort_id', p_resort_id, 'exact', v_exact,
      'requested', v_requested, 'current', v_current_identity);
  end if;

  return mountain.graph_identity(v_served) || jsonb_build_object(
    'status', 'fetch', 'exact', v_exact, 'current', v_current_identity,
    'status_ref', mountain.status_reference(p_resort_id, v_served.manifest_version, v_served.graph_version, v_served.sha256),
    'blob', translate(encode(v_served.blob, 'base64'), E'\n', ''));
end
$$;

revoke all on function mountain.get_resort_graph(text, integer, text, integer, text, text, date) from public;
grant execute on function mountain.get_resort_graph(text, integer, text, integer, text, text, date) to authenticated, service_role;
