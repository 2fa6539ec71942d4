-- Helpers for pgTAP files. Installed only in test databases (cloned from the
-- migrated test template), never by `summit migrate`.
create schema if not exists tests;
grant usage on schema tests to anon, authenticated, service_role;

-- pgTAP's functions are created after migration 0001 took EXECUTE away from
-- PUBLIC by default; tests assert while acting as any role, so give it back.
grant execute on all functions in schema public to public;

-- A new account in auth.users; returns its id.
create or replace function tests.create_user(
  email text default null, phone text default null, meta jsonb default '{}'::jsonb
) returns uuid
  language sql
  security definer
  set search_path = pg_catalog, public
  as $$
    insert into auth.users (email, phone, raw_user_meta_data)
    values (coalesce(email, 'user-' || gen_random_uuid() || '@example.test'), phone, meta)
    returning id
  $$;

-- Act as a user for the rest of the transaction, as the gateway would: SET LOCAL
-- ROLE plus the JWT claims in request.jwt.claims and request.jwt.claim.sub/role.
create or replace function tests.act_as(uid uuid, role text default 'authenticated') returns void
  language plpgsql
  as $$
begin
  if role not in ('anon', 'authenticated', 'service_role') then
    raise exception 'tests.act_as: role must be anon, authenticated or service_role, not %', role;
  end if;
  perform set_config('request.jwt.claims',
    jsonb_strip_nulls(jsonb_build_object('sub', uid, 'role', role,
      'aud', case when role = 'authenticated' then 'authenticated' end))::text, true);
  perform set_config('request.jwt.claim.sub', coalesce(uid::text, ''), true);
  perform set_config('request.jwt.claim.role', role, true);
  execute format('set local role %I', role);
end
$$;

create or replace function tests.act_as_anon() returns void
  language sql
  as $$ select tests.act_as(null, 'anon') $$;

create or replace function tests.act_as_service() returns void
  language sql
  as $$ select tests.act_as(null, 'service_role') $$;

-- Back to the test's own (superuser) role with no claims.
create or replace function tests.clear_authentication() returns void
  language plpgsql
  as $$
begin
  perform set_config('request.jwt.claims', '', true);
  perform set_config('request.jwt.claim.sub', '', true);
  perform set_config('request.jwt.claim.role', '', true);
  set local role none;
end
$$;

-- summit.now() returns this instant until unfreeze_time() or the end of the transaction.
create or replace function tests.freeze_time(at timestamptz) returns void
  language sql
  as $$ select set_config('summit.frozen_now', at::text, true) $$;

create or replace function tests.unfreeze_time() returns void
  language sql
  as $$ select set_config('summit.frozen_now', '', true) $$;

-- Resort alpha with a published canonical dataset (manifest 1, graph v15 of the
-- 2025-01-01 snapshot, content 'a' x 64) and one rendezvous point, rp501 "Base
-- Lodge" at node 501: for tests that need a live dataset, not the steps that
-- publish one (those are the mountain_* files' subject).
create or replace function tests.publish_alpha() returns void
  language plpgsql
  as $$
begin
  insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
  values ('alpha', 'Alpha Peak', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05);
  insert into mountain.osm_snapshots (resort_id, snapshot_date, format, source_name, bytes, sha256, byte_count)
  values ('alpha', '2025-01-01', 'overpass_json', 'alpha.json', '\x7b7d', encode(sha256('\x7b7d'), 'hex'), 2);
  perform tests.act_as_service();
  perform mountain.apply_canonical_manifest('alpha', 0, 1, '[]', '[{"name": "Summit Express", "osm_way_ids": ["201"]}]',
    p_rendezvous_points => '[{"anchor_osm_node_id": 501, "kind": "lodge", "display_name": "Base Lodge", "confidence": 1, "quality": 0.9}]');
  perform mountain.record_resort_graph_blob('alpha', 1, '2025-01-01', 'v15', '\x61', repeat('a', 64),
    encode(sha256('\x61'), 'hex'), '3:2:00000000000000aa', 3, 2, 100);
  perform mountain.publish_canonical_manifest('alpha', 1, 'v15', '2025-01-01', repeat('a', 64));
  perform tests.clear_authentication();
end
$$;

-- Every ordinary or partitioned table of the app's schemas (all but PostgreSQL's
-- own, pgTAP's in public and these helpers) that lacks row level security, as
-- schema.table. Tables an extension owns are the extension's business.
create or replace function tests.tables_without_rls() returns setof text
  language sql stable
  as $$
  select format('%I.%I', n.nspname, c.relname)
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p')
    and not c.relrowsecurity
    and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast', 'tests')
    and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'
    and not exists (select 1 from pg_depend d
                    where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
  order by 1
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;
