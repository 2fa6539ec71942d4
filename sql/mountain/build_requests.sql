-- request_graph_build: what the gateway's build-resort-graph does for an app
-- caller (anon or a session), run as the service role like every mountain
-- write. It never builds: it answers what there is and records the ask where
-- a staged manifest waits to be built or published; the ask only counts.
--   no_manifest   the resort has no canonical manifest (the app takes a 404)
--   published     the newest manifest is active: fetch it with get-resort-graph
--   requested     recorded for the operator (summit resort list shows it)
create or replace function mountain.request_graph_build(p_resort_id text)
  returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_newest integer;
  v_active integer;
  v_count integer;
begin
  select max(m.manifest_version) into v_newest from mountain.resort_canonical_manifest m where m.resort_id = p_resort_id;
  if v_newest is null then
    return jsonb_build_object('status', 'no_manifest', 'resort_id', p_resort_id);
  end if;
  select p.manifest_version into v_active
  from mountain.resort_canonical_active a join mountain.resort_canonical_publication p on p.id = a.publication_id
  where a.resort_id = p_resort_id;
  if v_active = v_newest then
    return jsonb_build_object('status', 'published', 'resort_id', p_resort_id, 'manifest_version', v_active);
  end if;
  insert into mountain.graph_build_requests as r (resort_id, manifest_version)
  values (p_resort_id, v_newest)
  on conflict (resort_id, manifest_version) do update
    set request_count = r.request_count + 1, last_requested_at = now()
  returning r.request_count into v_count;
  return jsonb_build_object('status', 'requested', 'resort_id', p_resort_id, 'manifest_version', v_newest,
                            'current_manifest_version', v_active, 'request_count', v_count);
end
$$;
revoke all on function mountain.request_graph_build(text) from public;
grant execute on function mountain.request_graph_build(text) to service_role;
