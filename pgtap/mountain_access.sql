-- Who may do what in the mountain schema: RLS on every table, the service
-- role alone writes, clients read published data only, anon reads only the
-- resort catalog, and no function runs with its owner's rights.
begin;
select plan(17);

insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
values ('alpha', 'Alpha Peak', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05);
insert into mountain.osm_snapshots (resort_id, snapshot_date, format, source_name, bytes, sha256, byte_count)
values ('alpha', '2025-01-01', 'overpass_json', 'alpha.json', '\x7b7d', encode(sha256('\x7b7d'), 'hex'), 2);
select tests.create_user('rider@example.test') as rider \gset

select is((select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'mountain' and c.relkind = 'r' and not c.relrowsecurity), 0,
  'every mountain table has RLS enabled');
select is((select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = 'mountain' and p.prosecdef), 0,
  'no mountain function is SECURITY DEFINER: RPCs run with the caller''s rights');
select is((select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = 'mountain'
             and exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                         where a.grantee = 0 and a.privilege_type = 'EXECUTE')), 0,
  'PUBLIC executes no mountain function');
select is((select array_agg(p.proname::text order by p.proname) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = 'mountain' and has_function_privilege('anon', p.oid, 'execute')),
  array['dataset_version', 'newest_3d_pack', 'resolve_resort_id', 'resolve_resort_id', 'search_resorts'],
  'anon executes only dataset_version, newest_3d_pack, resolve_resort_id and search_resorts (the public catalog)');
select is((select array_agg(p.proname::text order by p.proname) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = 'mountain' and has_function_privilege('authenticated', p.oid, 'execute')
             and p.proname in ('apply_canonical_manifest', 'publish_canonical_manifest', 'record_resort_graph_blob',
                               'record_resort_status', 'canonical_manifest_document')),
  null, 'authenticated executes none of the writing RPCs');
select is((select count(*)::int from information_schema.table_privileges
           where grantee in ('authenticated', 'anon') and table_schema = 'mountain'
             and privilege_type in ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE')), 0,
  'clients hold no write privilege on any mountain table');

-- Stage and build v1 as the service role; nothing is published.
select tests.act_as_service();
select mountain.apply_canonical_manifest('alpha', 0, 1, '[]', '[{"name": "Summit Express", "osm_way_ids": ["201"]}]') as v1 \gset
select mountain.record_resort_graph_blob('alpha', 1, '2025-01-01', 'v15', '\x61', repeat('a', 64),
  encode(sha256('\x61'), 'hex'), '3:2:00000000000000aa', 3, 2, 100) as built \gset

select tests.act_as_anon();
select is((select count(*)::int from mountain.resorts), 1, 'anon reads the resort catalog');
select throws_ok($$select count(*) from mountain.resort_canonical_publication$$, '42501', null, 'anon cannot read publications');

select tests.act_as(:'rider');
select is((select count(*)::int from mountain.resort_canonical_manifest), 0, 'a staged manifest is invisible to clients');
select is((select count(*)::int from mountain.canonical_lift), 0, 'so are its rows');
select is((select count(*)::int from mountain.resort_graph_blob), 0, 'an unpublished build is invisible to clients');
select throws_ok($$select count(*) from mountain.osm_snapshots$$, '42501', null, 'clients cannot read snapshots');
select throws_ok($$select count(*) from mountain.manifest_drafts$$, '42501', null, 'clients cannot read drafts');
select throws_ok($$insert into mountain.resort_canonical_active (resort_id, publication_id) values ('alpha', 1)$$, '42501', null,
  'clients cannot move the active pointer');

select tests.act_as_service();
select mountain.publish_canonical_manifest('alpha', 1, 'v15', '2025-01-01', repeat('a', 64)) as published \gset
select tests.act_as(:'rider');
select is((select count(*)::int from mountain.resort_graph_blob), 1, 'once published, clients read the blob');
select is((select array_agg(name) from mountain.canonical_lift), array['Summit Express'], 'and the manifest''s rows');
select is((select dataset_version from mountain.current_resort_canonical_manifest), 'm1-v15-' || repeat('a', 64),
  'and the active identity');

select * from finish();
rollback;
