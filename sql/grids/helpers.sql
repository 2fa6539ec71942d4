-- AirStrive helpers: deterministic ids, board geometry, membership, grid use,
-- corrections. SECURITY DEFINER helpers that change rows check their caller:
-- a client (anon/authenticated claims) must own the solo board or be a member
-- of the group it touches.
--
-- The small helpers the rules call for every row (nil_uuid, grid_neighbours,
-- client_call) carry no SET clause, so the planner inlines them: a SQL function
-- that cannot be inlined is parsed and planned again in each statement calling
-- it. Their bodies name nothing a search_path finds. Helpers that run statements
-- per row are PL/pgSQL, whose plans last the session, and plan generically: their
-- keyed lookups never plan better for particular values, and a custom plan per
-- call cost more than the lookup itself.

create or replace function private.nil_uuid() returns uuid
  language sql immutable
  as $$ select '00000000-0000-0000-0000-000000000000'::uuid $$;

-- UUIDv5 in the AirStrive namespace (uuid_generate_v5(uuid_ns_url(), 'urn:airstrive:ids')).
create or replace function private.v5(p_name text) returns uuid
  language sql immutable
  set search_path = ''
  as $$ select public.uuid_generate_v5('00172f0c-6407-5cfe-8061-aae8a5f122ba'::uuid, p_name) $$;

-- Centre cells: odd n the middle cell, even n the 2x2 middle block.
create or replace function private.grid_centre(n int) returns smallint[]
  language sql immutable
  set search_path = ''
  as $$
    select case when n % 2 = 1 then array[((n - 1) / 2) * n + (n - 1) / 2]::smallint[]
      else array[(n/2 - 1) * n + n/2 - 1, (n/2 - 1) * n + n/2, (n/2) * n + n/2 - 1, (n/2) * n + n/2]::smallint[]
    end
  $$;

-- The squares above, left, right and below p, in that (ascending) order.
create or replace function private.grid_neighbours(n int, p int) returns smallint[]
  language sql immutable
  as $$
    select array_remove(array[case when p / n > 0 then p - n end, case when p % n > 0 then p - 1 end,
                              case when p % n < n - 1 then p + 1 end, case when p / n < n - 1 then p + n end],
                        null)::smallint[]
  $$;

-- Positions by (Manhattan distance to the nearest centre cell, row, col).
create or replace function private.reveal_order(n int) returns smallint[]
  language sql immutable
  set search_path = ''
  as $$
    select array_agg(p::smallint order by d, p / n, p % n) from (
      select p, (select min(abs(p / n - c / n) + abs(p % n - c % n))
                 from unnest(private.grid_centre(n)) c) as d
      from generate_series(0, n * n - 1) p) s
  $$;

create or replace function private.is_member(p_group_id uuid, p_user uuid) returns boolean
  language plpgsql stable security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  return p_group_id is not null and p_user is not null and exists (
    select 1 from grids.group_members where group_id = p_group_id and user_id = p_user);
end
$$;

-- The caller's groups, for policies (computed once per statement, and the rules
-- run a statement per row: PL/pgSQL keeps the plan a SQL function would redo).
create or replace function private.my_group_ids() returns setof uuid
  language plpgsql stable security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  return query select group_id from grids.group_members where user_id = auth.uid();
end
$$;

create or replace function private.co_members(a uuid, b uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select a is not null and b is not null and a <> b and exists (
      select 1 from grids.group_members x join grids.group_members y using (group_id)
      where x.user_id = a and y.user_id = b)
  $$;

-- Is a client (not definer code, the worker or a seed) making this call?
create or replace function private.client_call() returns boolean
  language sql stable
  as $$ select coalesce(auth.role(), '') in ('anon', 'authenticated') $$;

-- A client may write a board it owns (solo) or belongs to (group).
create or replace function private.assert_writer(p_user_grid_id uuid) returns void
  language plpgsql stable security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  ug grids.user_grids;
begin
  if not private.client_call() then
    return;
  end if;
  select * into ug from grids.user_grids where id = p_user_grid_id;
  if not found or (ug.group_id is null and ug.user_id is distinct from auth.uid())
     or (ug.group_id is not null and not private.is_member(ug.group_id, auth.uid())) then
    perform private.fail('not_allowed', 'You can only change your own grids and groups you belong to.');
  end if;
end
$$;

-- V-T1: in the Atlas.
create or replace function private.in_atlas(g grids.grids) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select not g.deleted and g.hidden_at is null and (
      g.kind in ('starter', 'curated')
      or (g.shared and g.owner_id is not null and not private.suspended(g.owner_id)))
  $$;

-- R11: may p_user put this grid on a shelf?
create or replace function private.can_use_grid(p_user uuid, p_grid_id uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select p_user is not null and exists (
      select 1 from grids.grids g
      where g.id = p_grid_id and not g.deleted and (
        g.kind in ('starter', 'curated')
        or g.owner_id = p_user
        or (private.in_atlas(g) and not private.blocked_pair(g.owner_id, p_user))
        or exists (select 1 from grids.user_grids ug
                   where ug.grid_id = g.id and not ug.deleted
                     and ((ug.group_id is null and ug.user_id = p_user)
                          or private.is_member(ug.group_id, p_user)))))
  $$;

-- The policy form: only ever about the caller.
create or replace function private.can_use_grid(p_grid_id uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$ select private.can_use_grid(auth.uid(), p_grid_id) $$;

-- Corrections: logged for support and tests, and remembered for this
-- transaction so sync_push can answer "corrected".
create or replace function private.log_correction(p_table text, p_row_id uuid, p_kind text,
  p_detail jsonb default '{}'::jsonb) returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  insert into private.sync_corrections (table_name, row_id, user_id, kind, detail)
  values (p_table, p_row_id, auth.uid(), p_kind, coalesce(p_detail, '{}'::jsonb));
  perform set_config('summit.corrected',
    coalesce(nullif(current_setting('summit.corrected', true), ''), '') || p_row_id::text || ':' || p_kind || ',',
    true);
end
$$;

-- C15: an updated_at more than 10 minutes ahead of the server is clamped.
create or replace function private.clamp_clock(p_table text, p_row_id uuid, p_ts timestamptz)
returns timestamptz
  language plpgsql volatile
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if p_ts > summit.now() + interval '10 minutes' then
    perform private.log_correction(p_table, p_row_id, 'clock_clamped',
      jsonb_build_object('sent', p_ts, 'stored', summit.now()));
    return summit.now();
  end if;
  return p_ts;
end
$$;

create or replace function private.queue_storage_deletion(p_bucket text, p_name text) returns void
  language sql volatile security definer
  set search_path = ''
  as $$
    insert into private.storage_deletions (bucket, name) values (p_bucket, p_name)
  $$;

-- Queue the object of a photo that is now a tombstone (safe for any caller:
-- it only acts on tombstones).
create or replace function private.queue_photo_object(p_photo_id uuid) returns void
  language sql volatile security definer
  set search_path = ''
  as $$
    insert into private.storage_deletions (bucket, name)
    select 'photos', p.storage_path from grids.photos p where p.id = p_photo_id and p.deleted
  $$;

-- R9: (done, total, complete)
create or replace function private.grid_progress(p_user_grid_id uuid,
  out done int, out total int, out complete boolean)
  language sql stable security definer
  set search_path = ''
  as $$
    select count(*) filter (where s.freebie_at is not null or exists (
             select 1 from grids.moments m where m.user_square_id = s.id and not m.deleted))::int,
           (g.size * g.size)::int,
           count(*) filter (where s.freebie_at is not null or exists (
             select 1 from grids.moments m where m.user_square_id = s.id and not m.deleted)) = g.size * g.size
    from grids.user_grids ug
    join grids.grids g on g.id = ug.grid_id
    left join grids.user_squares s on s.user_grid_id = ug.id and not s.deleted
    where ug.id = p_user_grid_id
    group by g.size
  $$;

revoke all on function private.nil_uuid(), private.v5(text), private.grid_centre(int),
  private.grid_neighbours(int, int), private.reveal_order(int), private.is_member(uuid, uuid),
  private.my_group_ids(), private.co_members(uuid, uuid), private.client_call(),
  private.assert_writer(uuid), private.in_atlas(grids.grids), private.can_use_grid(uuid, uuid),
  private.can_use_grid(uuid), private.log_correction(text, uuid, text, jsonb),
  private.clamp_clock(text, uuid, timestamptz), private.queue_storage_deletion(text, text),
  private.queue_photo_object(uuid), private.grid_progress(uuid) from public;
-- Called by policies and by trigger bodies running as the client.
grant execute on function private.nil_uuid(), private.v5(text), private.grid_centre(int),
  private.grid_neighbours(int, int), private.my_group_ids(), private.client_call(),
  private.assert_writer(uuid), private.can_use_grid(uuid), private.log_correction(text, uuid, text, jsonb),
  private.clamp_clock(text, uuid, timestamptz), private.queue_photo_object(uuid)
  to authenticated;
grant execute on function private.v5(text) to anon;

create or replace function private.grid_exists(p_grid_id uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$ select exists (select 1 from grids.grids where id = p_grid_id) $$;
revoke all on function private.grid_exists(uuid) from public;
grant execute on function private.grid_exists(uuid) to authenticated;
