-- The MountainStatus sidecar: observed open/closed state and waits per stable
-- edge id, for one exact published identity, one row per resort and UTC hour.
-- Status is never part of the dataset. A refresh that fails validation writes
-- nothing, so the previous sidecar stays in place.

-- Records (or, within the same UTC hour, replaces) the resort's status.
-- p_edges: {"<edge id>": {"is_open": bool, "wait_minutes": number|null}}.
-- The identity must have been published; expires_at defaults to observed_at + 1 h.
create or replace function mountain.record_resort_status(
  p_resort_id text,
  p_manifest_version integer,
  p_graph_version text,
  p_content_sha256 text,
  p_observed_at timestamptz,
  p_source text,
  p_edges jsonb,
  p_expires_at timestamptz default null
) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_expires timestamptz := coalesce(p_expires_at, p_observed_at + interval '1 hour');
  v_hour text := to_char(p_observed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24');
  v_bad text;
begin
  if not mountain.is_sha256_hex(p_content_sha256) then
    perform mountain.refuse('invalid_content_sha256', 'content_sha256 is the 64 lowercase hex characters of the published identity');
  end if;
  if not exists (select 1 from mountain.resort_canonical_publication
                 where resort_id = p_resort_id and manifest_version = p_manifest_version
                   and graph_version = p_graph_version and content_sha256 = p_content_sha256) then
    perform mountain.refuse('identity_not_published', format(
      'Status belongs to a published dataset, and %s %s was never published; publish it first',
      p_resort_id, mountain.dataset_version(p_manifest_version, p_graph_version, p_content_sha256)));
  end if;
  if p_observed_at is null or v_expires <= p_observed_at then
    perform mountain.refuse('invalid_status_window', 'observed_at is required and expires_at must come after it');
  end if;
  if p_observed_at > summit.now() + interval '120 seconds' then
    perform mountain.refuse('status_from_the_future', format(
      'observed_at %s is more than 120 s ahead of the server clock; check the producer''s clock', p_observed_at));
  end if;
  if coalesce(btrim(p_source), '') = '' then
    perform mountain.refuse('invalid_status_source', 'Name the feed the status came from');
  end if;
  if jsonb_typeof(p_edges) is distinct from 'object' then
    perform mountain.refuse('invalid_status_edges', 'edges is an object keyed by stable edge id');
  end if;
  select k into v_bad from jsonb_each(p_edges) as e(k, v)
  where k !~ '^[tlc][0-9]+(_s[0-9]+)?(_r)?$'
     or jsonb_typeof(v) <> 'object'
     or jsonb_typeof(v -> 'is_open') is distinct from 'boolean'
     or (v ? 'wait_minutes' and jsonb_typeof(v -> 'wait_minutes') not in ('null', 'number'))
     or (jsonb_typeof(v -> 'wait_minutes') = 'number' and (v ->> 'wait_minutes')::double precision not between 0 and 600)
     or exists (select 1 from jsonb_object_keys(v) f where f not in ('is_open', 'wait_minutes'))
  order by k limit 1;
  if v_bad is not null then
    perform mountain.refuse('invalid_status_edges', format(
      'Entry "%s" must be a stable edge id mapped to {"is_open": bool, "wait_minutes": minutes 0…600 or null}', v_bad));
  end if;

  insert into mountain.resort_status (resort_id, hour_key, manifest_version, graph_version, content_sha256,
    observed_at, expires_at, source, edges, recorded_at)
  values (p_resort_id, v_hour, p_manifest_version, p_graph_version, p_content_sha256, p_observed_at, v_expires,
    btrim(p_source), p_edges, summit.now())
  on conflict (resort_id, hour_key) do update set
    manifest_version = excluded.manifest_version, graph_version = excluded.graph_version,
    content_sha256 = excluded.content_sha256, observed_at = excluded.observed_at, expires_at = excluded.expires_at,
    source = excluded.source, edges = excluded.edges, recorded_at = excluded.recorded_at;
  return mountain.status_reference(p_resort_id, p_manifest_version, p_graph_version, p_content_sha256);
end
$$;

-- The newest status of one exact identity, with its edges and whether it is
-- usable now; 'status_unavailable' when there is none.
create or replace function mountain.get_resort_status(
  p_resort_id text, p_manifest_version integer, p_graph_version text, p_content_sha256 text
) returns jsonb
  language plpgsql stable
  set search_path = ''
  as $$
declare
  v_reference jsonb := mountain.status_reference(p_resort_id, p_manifest_version, p_graph_version, p_content_sha256);
begin
  if v_reference is null then
    return jsonb_build_object('status', 'status_unavailable', 'resort_id', p_resort_id,
      'dataset_version', mountain.dataset_version(p_manifest_version, p_graph_version, p_content_sha256));
  end if;
  return v_reference || jsonb_build_object('status', 'ok', 'edges',
    (select s.edges from mountain.resort_status s
     where s.resort_id = p_resort_id and s.hour_key = v_reference ->> 'hour_key'));
end
$$;

grant execute on function mountain.record_resort_status(text, integer, text, text, timestamptz, text, jsonb, timestamptz) to service_role;
grant execute on function mountain.get_resort_status(text, integer, text, text) to authenticated, service_role;
