-- The resort catalog (summit resort catalog import|list): the operator's file of
-- resorts — id, name, region, country, pass products, aliases, box and centre —
-- imported whole or not at all, and searched by anyone by name, alias, id or
-- region. resolve_resort_id(p_name) finds a resort by its name or an alias.

create or replace function mountain.import_resort_catalog(p_rows jsonb) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_row jsonb;
  v_index int := 0;
  v_problems text[] := '{}';
  v_added int := 0;
  v_changed int := 0;
  v_unchanged int := 0;
  v_old mountain.resorts;
  v_new mountain.resorts;
begin
  if auth.role() <> 'service_role' then
    perform private.fail('not_allowed', 'Only the operator imports the resort catalog: summit resort catalog import FILE.');
  end if;
  if jsonb_typeof(p_rows) <> 'array' then
    perform private.fail('catalog_invalid', 'The catalog is a JSON array of resorts.');
  end if;
  -- Every row is checked before anything is written; all the bad ones are named.
  for v_row in select value from jsonb_array_elements(p_rows) loop
    v_index := v_index + 1;
    begin
      if jsonb_typeof(v_row) <> 'object' then raise exception 'not an object'; end if;
      if coalesce(v_row ->> 'id', '') !~ '^[a-z0-9][a-z0-9_-]{0,62}$' then
        raise exception 'id must be 1 to 63 lowercase letters, digits, _ and - (got %)', coalesce(v_row ->> 'id', 'none');
      end if;
      if length(btrim(coalesce(v_row ->> 'name', ''))) = 0 then raise exception 'name is required'; end if;
      if not ((v_row -> 'bbox' ->> 'lat_min')::float8 between -90 and 90 and (v_row -> 'bbox' ->> 'lat_max')::float8 between -90 and 90
              and (v_row -> 'bbox' ->> 'lon_min')::float8 between -180 and 180 and (v_row -> 'bbox' ->> 'lon_max')::float8 between -180 and 180
              and (v_row -> 'bbox' ->> 'lat_min')::float8 < (v_row -> 'bbox' ->> 'lat_max')::float8
              and (v_row -> 'bbox' ->> 'lon_min')::float8 < (v_row -> 'bbox' ->> 'lon_max')::float8) then
        raise exception 'bbox needs lat_min < lat_max and lon_min < lon_max within -90..90 and -180..180';
      end if;
      if not ((v_row -> 'center' ->> 'lat')::float8 between (v_row -> 'bbox' ->> 'lat_min')::float8 and (v_row -> 'bbox' ->> 'lat_max')::float8
              and (v_row -> 'center' ->> 'lon')::float8 between (v_row -> 'bbox' ->> 'lon_min')::float8 and (v_row -> 'bbox' ->> 'lon_max')::float8) then
        raise exception 'center must lie inside bbox';
      end if;
      if jsonb_typeof(coalesce(v_row -> 'aliases', '[]')) <> 'array' or jsonb_typeof(coalesce(v_row -> 'pass_products', '[]')) <> 'array' then
        raise exception 'aliases and pass_products are arrays of strings';
      end if;
    exception when others then
      v_problems := v_problems || format('resort #%s (%s): %s', v_index, coalesce(v_row ->> 'id', 'no id'), sqlerrm);
    end;
  end loop;
  if (select count(*) from jsonb_array_elements(p_rows)) <> (select count(distinct value ->> 'id') from jsonb_array_elements(p_rows)) then
    v_problems := v_problems || 'an id appears twice: keep one entry for each resort'::text;
  end if;
  if cardinality(v_problems) > 0 then
    perform private.fail('catalog_invalid', array_to_string(v_problems[1:20], '; ')
      || case when cardinality(v_problems) > 20 then format('; and %s more', cardinality(v_problems) - 20) else '' end);
  end if;

  for v_row in select value from jsonb_array_elements(p_rows) loop
    select * into v_old from mountain.resorts where id = v_row ->> 'id' for update;
    v_new := v_old;
    v_new.id := v_row ->> 'id';
    v_new.name := btrim(v_row ->> 'name');
    v_new.region := nullif(btrim(coalesce(v_row ->> 'region', '')), '');
    v_new.country := nullif(btrim(coalesce(v_row ->> 'country', '')), '');
    v_new.pass_products := array(select jsonb_array_elements_text(coalesce(v_row -> 'pass_products', '[]')) order by 1);
    v_new.aliases := array(select jsonb_array_elements_text(coalesce(v_row -> 'aliases', '[]')));
    v_new.lat_min := (v_row -> 'bbox' ->> 'lat_min')::float8;
    v_new.lon_min := (v_row -> 'bbox' ->> 'lon_min')::float8;
    v_new.lat_max := (v_row -> 'bbox' ->> 'lat_max')::float8;
    v_new.lon_max := (v_row -> 'bbox' ->> 'lon_max')::float8;
    v_new.center_lat := (v_row -> 'center' ->> 'lat')::float8;
    v_new.center_lon := (v_row -> 'center' ->> 'lon')::float8;
    if v_old.id is null then
      insert into mountain.resorts (id, name, region, country, pass_products, aliases, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
      values (v_new.id, v_new.name, v_new.region, v_new.country, v_new.pass_products, v_new.aliases, v_new.lat_min, v_new.lon_min,
              v_new.lat_max, v_new.lon_max, v_new.center_lat, v_new.center_lon);
      v_added := v_added + 1;
    elsif (v_new.name, v_new.region, v_new.country, v_new.pass_products, v_new.aliases, v_new.lat_min, v_new.lon_min, v_new.lat_max,
           v_new.lon_max, v_new.center_lat, v_new.center_lon)
          is not distinct from (v_old.name, v_old.region, v_old.country, v_old.pass_products, v_old.aliases, v_old.lat_min, v_old.lon_min,
           v_old.lat_max, v_old.lon_max, v_old.center_lat, v_old.center_lon) then
      v_unchanged := v_unchanged + 1;
    else
      update mountain.resorts set name = v_new.name, region = v_new.region, country = v_new.country, pass_products = v_new.pass_products,
        aliases = v_new.aliases, lat_min = v_new.lat_min, lon_min = v_new.lon_min, lat_max = v_new.lat_max, lon_max = v_new.lon_max,
        center_lat = v_new.center_lat, center_lon = v_new.center_lon
      where id = v_new.id;
      v_changed := v_changed + 1;
    end if;
  end loop;
  return jsonb_build_object('added', v_added, 'changed', v_changed, 'unchanged', v_unchanged,
                            'total', (select count(*) from mountain.resorts));
end
$$;
revoke all on function mountain.import_resort_catalog(jsonb) from public;
grant execute on function mountain.import_resort_catalog(jsonb) to service_role;

-- Resorts whose name, an alias, the id or the region matches p_query (words in
-- any case, or close spellings), exact matches first, then the closest; all of
-- them without a query.
create or replace function mountain.search_resorts(p_query text default null, p_limit integer default 50)
  returns setof mountain.resorts
  language sql stable
  set search_path = ''
  as $$
    select r.* from mountain.resorts r,
      lateral (select nullif(btrim(coalesce(p_query, '')), '') as q) s,
      lateral (select greatest(public.similarity(r.name, s.q),
                               coalesce((select max(public.similarity(a, s.q)) from unnest(r.aliases) a), 0)) as score) m
    where s.q is null
       or r.name ilike '%' || s.q || '%' or r.id ilike '%' || s.q || '%' or r.region ilike s.q
       or exists (select 1 from unnest(r.aliases) a where a ilike '%' || s.q || '%')
       or m.score > 0.3
    order by (s.q is not null and (lower(r.name) = lower(s.q) or lower(r.id) = lower(s.q) or lower(r.region) = lower(s.q)
              or exists (select 1 from unnest(r.aliases) a where lower(a) = lower(s.q)))) desc,
             m.score desc, r.name, r.id
    limit greatest(1, least(coalesce(p_limit, 50), 500))
  $$;
grant execute on function mountain.search_resorts(text, integer) to anon, authenticated, service_role;

-- A resort by its name or one of its aliases (case aside), or its id; none when
-- nothing, or more than one resort, answers to it exactly.
create or replace function mountain.resolve_resort_id(p_name text) returns text
  language sql stable
  set search_path = ''
  as $$
    select min(r.id) from mountain.resorts r
    where r.id = lower(btrim(p_name)) or lower(r.name) = lower(btrim(p_name))
       or exists (select 1 from unnest(r.aliases) a where lower(a) = lower(btrim(p_name)))
    having count(*) = 1
  $$;
grant execute on function mountain.resolve_resort_id(text) to anon, authenticated, service_role;
