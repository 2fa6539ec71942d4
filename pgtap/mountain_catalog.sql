-- The resort catalog: imported whole or not at all, by the operator only,
-- idempotently; searched and resolved by anyone by name, alias, id or region.
begin;
select plan(13);

create function pg_temp.entry(p_id text, p_name text, p_aliases text[] default '{}', p_region text default 'CO',
                              p_lat float8 default 39.6, p_lon float8 default -106.37) returns jsonb
  language sql as $$
    select jsonb_build_object('id', p_id, 'name', p_name, 'region', p_region, 'country', 'USA', 'pass_products', '["epic"]'::jsonb,
      'aliases', to_jsonb(p_aliases), 'bbox', jsonb_build_object('lat_min', p_lat - 0.05, 'lon_min', p_lon - 0.06,
      'lat_max', p_lat + 0.05, 'lon_max', p_lon + 0.06), 'center', jsonb_build_object('lat', p_lat, 'lon', p_lon))
  $$;

-- The hint a refused statement answers (what the CLI shows the operator).
create function pg_temp.hint(p_statement text) returns text
  language plpgsql as $$
declare
  v_hint text;
begin
  execute p_statement;
  return null;
exception when others then
  get stacked diagnostics v_hint = pg_exception_hint;
  return v_hint;
end
$$;

select tests.act_as(tests.create_user('rider@example.test'));
select throws_ok($$select mountain.import_resort_catalog(jsonb_build_array(pg_temp.entry('vail', 'Vail')))$$, '42501', null,
  'a client cannot import the catalog');

select tests.act_as_service();
select is(mountain.import_resort_catalog(jsonb_build_array(pg_temp.entry('vail', 'Vail'),
            pg_temp.entry('les-3-vallees', 'Les 3 Vallées', '{Courchevel,Méribel}', 'FR', 45.3, 6.58))) - 'total',
  '{"added": 2, "changed": 0, "unchanged": 0}', 'two resorts are added');
select is(mountain.import_resort_catalog(jsonb_build_array(pg_temp.entry('vail', 'Vail'),
            pg_temp.entry('les-3-vallees', 'Les 3 Vallées', '{Courchevel,Méribel}', 'FR', 45.3, 6.58))) - 'total',
  '{"added": 0, "changed": 0, "unchanged": 2}', 'the same file again changes nothing');
select is(mountain.import_resort_catalog(jsonb_build_array(pg_temp.entry('vail', 'Vail Mountain'))) - 'total',
  '{"added": 0, "changed": 1, "unchanged": 0}', 'a changed name is a change; a resort left out is kept');

select matches(pg_temp.hint($$select mountain.import_resort_catalog(jsonb_build_array(pg_temp.entry('keystone', 'Keystone'),
    pg_temp.entry('Bad Id', 'Bad'), pg_temp.entry('inside-out', 'Inside Out') || '{"center": {"lat": 10, "lon": 10}}'))$$),
  'resort #2 \(Bad Id\): id must be.*resort #3 \(inside-out\): center must lie inside bbox', 'every bad entry is named');
select ok(not exists (select 1 from mountain.resorts where id = 'keystone'), 'and nothing of that file was imported');
select matches(pg_temp.hint($$select mountain.import_resort_catalog(jsonb_build_array(pg_temp.entry('vail', 'Vail'), pg_temp.entry('vail', 'Vail')))$$),
  'an id appears twice', 'an id twice refuses the file');

select tests.act_as_anon();
select is((select region || '/' || array_to_string(aliases, ',') from mountain.resorts where id = 'les-3-vallees'), 'FR/Courchevel,Méribel',
  'anyone reads the catalog with its aliases');
select is((select array_agg(id) from mountain.search_resorts('courchevel')), array['les-3-vallees'], 'an alias finds its resort');
select is((select id from mountain.search_resorts('CO') limit 1), 'vail', 'a region finds its resorts, exact matches first');
select is(mountain.resolve_resort_id('méribel'), 'les-3-vallees', 'resolve_resort_id by an alias, case aside');
select is(mountain.resolve_resort_id('Vail Mountain'), 'vail', 'and by name');
select is(mountain.resolve_resort_id('Nowhere'), null, 'no resort by that name: none');

select * from finish();
rollback;
