-- Feed sources and the refresh rules the worker's scheduler follows.
--
-- Status (seed "Operational status expires"): refresh when the active
-- identity has no status or its newest one expires within two minutes;
-- after a failed attempt wait five minutes before the next. Weather: once an
-- hour (the hourly merge), with failed attempts throttled to five minutes as
-- well. The worker checks once a minute (the seed's foreground minute clock).

-- Configures (or replaces) where a resort's status or weather feed comes from.
create or replace function mountain.set_feed_source(
  p_resort_id text, p_kind text, p_location text, p_format text default null, p_enabled boolean default true
) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
begin
  if not exists (select 1 from mountain.resorts where id = p_resort_id) then
    perform mountain.refuse('unknown_resort', format('There is no resort %L; ingest it first (summit resort ingest)', p_resort_id));
  end if;
  if p_kind is null or p_kind not in ('status', 'weather') then
    perform mountain.refuse('invalid_feed_kind', 'A feed is either ''status'' or ''weather''');
  end if;
  if coalesce(btrim(p_location), '') = '' or length(p_location) > 2000 then
    perform mountain.refuse('invalid_feed_location', 'Give an http(s) URL or a file path, at most 2000 characters');
  end if;
  if p_location ~* '^[a-z][a-z0-9+.-]*://' and p_location !~* '^https?://' then
    perform mountain.refuse('invalid_feed_location', format('%s: only http:// and https:// URLs (or file paths) can be read', p_location));
  end if;
  if p_format is not null and (p_kind <> 'status' or p_format not in ('summit', 'epic')) then
    perform mountain.refuse('invalid_feed_format', 'Only status feeds take a format: ''summit'' or ''epic'' (or none to detect it)');
  end if;
  insert into mountain.resort_feed_sources (resort_id, kind, location, format, enabled, updated_at)
  values (p_resort_id, p_kind, btrim(p_location), p_format, coalesce(p_enabled, true), summit.now())
  on conflict (resort_id, kind) do update set
    location = excluded.location, format = excluded.format, enabled = excluded.enabled, updated_at = excluded.updated_at;
  return jsonb_build_object('resort_id', p_resort_id, 'kind', p_kind, 'location', btrim(p_location),
                            'format', p_format, 'enabled', coalesce(p_enabled, true));
end
$$;

-- The enabled sources of one kind whose refresh is due now, with why.
create or replace function mountain.due_feed_refreshes(p_kind text)
  returns table (resort_id text, location text, format text, reason text)
  language sql stable
  set search_path = ''
  as $$
    with candidates as (
      select s.resort_id, s.location, s.format, r.last_attempt_at, r.last_success_at, r.last_failure_at,
             (select max(st.expires_at) from mountain.current_resort_canonical_manifest c
                join mountain.resort_status st
                  on st.resort_id = c.resort_id and st.manifest_version = c.manifest_version
                 and st.graph_version = c.graph_version and st.content_sha256 = c.content_sha256
               where c.resort_id = s.resort_id) as status_expires_at,
             exists (select 1 from mountain.resort_canonical_active a where a.resort_id = s.resort_id) as published
      from mountain.resort_feed_sources s
      left join mountain.resort_feed_refreshes r on r.resort_id = s.resort_id and r.kind = s.kind
      where s.kind = p_kind and s.enabled
    ), judged as (
      select c.*,
             case
               when p_kind = 'status' and not c.published then null
               when c.last_failure_at is not null and (c.last_success_at is null or c.last_success_at < c.last_failure_at)
                    and c.last_failure_at > summit.now() - interval '5 minutes' then null
               when p_kind = 'status' and c.status_expires_at is null then 'no status for the active dataset'
               when p_kind = 'status' and c.status_expires_at <= summit.now() then 'status expired'
               when p_kind = 'status' and c.status_expires_at <= summit.now() + interval '2 minutes' then 'status expires within two minutes'
               when p_kind = 'weather' and c.last_success_at is null then 'no forecast merged yet'
               when p_kind = 'weather' and c.last_success_at <= summit.now() - interval '1 hour' then 'forecast older than an hour'
             end as reason
      from candidates c
    )
    select j.resort_id, j.location, j.format, j.reason from judged j where j.reason is not null order by j.resort_id
  $$;

-- Notes one refresh attempt: success clears the failure streak.
create or replace function mountain.record_feed_refresh(p_resort_id text, p_kind text, p_succeeded boolean, p_error text default null)
  returns void
  language sql volatile
  set search_path = ''
  as $$
    insert into mountain.resort_feed_refreshes as r (resort_id, kind, last_attempt_at, last_success_at, last_failure_at,
                                                    last_error, consecutive_failures)
    values (p_resort_id, p_kind, summit.now(),
            case when p_succeeded then summit.now() end,
            case when not p_succeeded then summit.now() end,
            case when not p_succeeded then left(p_error, 2000) end,
            case when p_succeeded then 0 else 1 end)
    on conflict (resort_id, kind) do update set
      last_attempt_at = excluded.last_attempt_at,
      last_success_at = coalesce(excluded.last_success_at, r.last_success_at),
      last_failure_at = coalesce(excluded.last_failure_at, r.last_failure_at),
      last_error = case when p_succeeded then r.last_error else excluded.last_error end,
      consecutive_failures = case when p_succeeded then 0 else r.consecutive_failures + 1 end
  $$;

grant execute on function mountain.set_feed_source(text, text, text, text, boolean) to service_role;
grant execute on function mountain.due_feed_refreshes(text) to service_role;
grant execute on function mountain.record_feed_refresh(text, text, boolean, text) to service_role;
