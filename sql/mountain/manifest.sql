-- Staging canonical manifests: apply_canonical_manifest validates a reviewed
-- manifest completely (rows, connectors and rendezvous overlay) and stages it
-- as the next version (never touching the active dataset or an existing
-- version); canonical_manifest_document hands the builder the rows in the
-- shape MountainGraph decodes (keys = column names).
--
-- Service role only. Every refusal happens before anything is written.

-- Names compare as Unicode NFC with outer whitespace trimmed, case-sensitive.
create or replace function mountain.identity_name(p_name text) returns text
  language sql immutable
  set search_path = ''
  as $$ select nullif(regexp_replace(normalize(coalesce(p_name, ''), nfc), '^\s+|\s+$', '', 'g'), '') $$;

-- Field readers for manifest rows: the value, null when absent or null, or a
-- refusal naming the row and the field.
create or replace function mountain.manifest_number(p_row jsonb, p_key text, p_owner text) returns double precision
  language plpgsql immutable
  set search_path = ''
  as $$
begin
  if p_row -> p_key is null or jsonb_typeof(p_row -> p_key) = 'null' then return null; end if;
  if jsonb_typeof(p_row -> p_key) <> 'number' then
    perform mountain.refuse('invalid_manifest_row', format('%s: %s must be a number or null, not %s', p_owner, p_key, p_row -> p_key));
  end if;
  return (p_row ->> p_key)::double precision;
end
$$;

create or replace function mountain.manifest_boolean(p_row jsonb, p_key text, p_owner text) returns boolean
  language plpgsql immutable
  set search_path = ''
  as $$
begin
  if p_row -> p_key is null or jsonb_typeof(p_row -> p_key) = 'null' then return null; end if;
  if jsonb_typeof(p_row -> p_key) <> 'boolean' then
    perform mountain.refuse('invalid_manifest_row', format('%s: %s must be true, false or null, not %s', p_owner, p_key, p_row -> p_key));
  end if;
  return (p_row ->> p_key)::boolean;
end
$$;

-- A positive 64-bit id given as a number or a digit string ("way/123" too):
-- 1 to 9223372036854775807, so the 19-digit node ids Summit derives from
-- coordinates for GeoJSON vertices (2e18 and up) pass.
create or replace function mountain.manifest_id(p_value jsonb, p_owner text, p_what text) returns bigint
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_text text := case jsonb_typeof(p_value) when 'number' then p_value #>> '{}'
                                             when 'string' then regexp_replace(p_value #>> '{}', '^(way|node)/', '') end;
begin
  if v_text is null or v_text !~ '^[0-9]{1,19}$' or v_text::numeric > 9223372036854775807 or v_text::numeric <= 0 then
    perform mountain.refuse('invalid_manifest_row', format('%s: %s %s is not a positive OSM id', p_owner, p_what, coalesce(p_value::text, 'null')));
  end if;
  return v_text::bigint;
end
$$;

-- Refuses keys a row of this kind does not have (a misspelt key would
-- otherwise be dropped silently).
create or replace function mountain.manifest_check_keys(p_row jsonb, p_allowed text[], p_owner text) returns void
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_unknown text;
begin
  if jsonb_typeof(p_row) is distinct from 'object' then
    perform mountain.refuse('invalid_manifest_row', format('%s is not a JSON object', p_owner));
  end if;
  select string_agg(k, ', ' order by k) into v_unknown
  from jsonb_object_keys(p_row) k where k <> all (p_allowed);
  if v_unknown is not null then
    perform mountain.refuse('invalid_manifest_row', format('%s has unknown field(s) %s; allowed: %s',
      p_owner, v_unknown, array_to_string(p_allowed, ', ')));
  end if;
end
$$;

create or replace function mountain.manifest_way_ids(p_row jsonb, p_owner text) returns text[]
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_ids text[] := '{}';
  v_item jsonb;
begin
  if p_row -> 'osm_way_ids' is null or jsonb_typeof(p_row -> 'osm_way_ids') = 'null' then return v_ids; end if;
  if jsonb_typeof(p_row -> 'osm_way_ids') <> 'array' then
    perform mountain.refuse('invalid_manifest_row', format('%s: osm_way_ids must be an array of way ids', p_owner));
  end if;
  for v_item in select e from jsonb_array_elements(p_row -> 'osm_way_ids') e loop
    v_ids := v_ids || mountain.manifest_id(v_item, p_owner, 'osm_way_ids entry')::text;
  end loop;
  if cardinality(v_ids) <> (select count(distinct x) from unnest(v_ids) x) then
    perform mountain.refuse('invalid_manifest_row', format('%s lists a way twice in osm_way_ids', p_owner));
  end if;
  return v_ids;
end
$$;

-- OSM spelling of a lift type; the camel spellings of the TS port are accepted.
create or replace function mountain.lift_type_name(p_value text) returns text
  language sql immutable
  set search_path = ''
  as $$
    select case p_value
      when 'chairlift' then 'chair_lift' when 'chairLift' then 'chair_lift'
      when 'tBar' then 't-bar' when 'jBar' then 'j-bar' when 'magicCarpet' then 'magic_carpet'
      when 'cableCar' then 'cable_car' when 'rope' then 'rope_tow' when 'ropeTow' then 'rope_tow'
      when 'dragLift' then 'drag_lift' when 'mixedLift' then 'mixed_lift'
      else p_value end
  $$;

-- One trail row, validated and normalised.
create or replace function mountain.normalized_trail(p_row jsonb, p_index integer) returns jsonb
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_owner text := format('trail #%s', p_index);
  v_name text;
  v_difficulty text;
  v_length double precision;
  v_vert double precision;
  v_ways text[];
  v_fallback boolean;
begin
  perform mountain.manifest_check_keys(p_row, array['name', 'difficulty', 'is_groomed', 'has_moguls', 'is_gladed',
    'length_m', 'vert_m', 'osm_way_ids', 'canonical_geometry', 'name_fallback_reviewed'], v_owner);
  v_name := mountain.identity_name(p_row ->> 'name');
  if v_name is null or jsonb_typeof(p_row -> 'name') <> 'string' then
    perform mountain.refuse('identity_name_missing', format('%s has no name; every canonical trail is a named identity', v_owner));
  end if;
  v_owner := format('trail "%s"', v_name);
  v_difficulty := p_row ->> 'difficulty';
  if v_difficulty is not null and v_difficulty not in ('green', 'blue', 'black', 'doubleBlack', 'terrainPark') then
    perform mountain.refuse('invalid_manifest_row', format('%s: difficulty "%s" is not one of green, blue, black, doubleBlack, terrainPark', v_owner, v_difficulty));
  end if;
  v_length := mountain.manifest_number(p_row, 'length_m', v_owner);
  v_vert := mountain.manifest_number(p_row, 'vert_m', v_owner);
  if v_length is not null and (v_length <= 0 or v_length > 50000) then
    perform mountain.refuse('invalid_manifest_row', format('%s: length_m %s is outside (0, 50000]', v_owner, v_length));
  end if;
  if v_vert is not null and (v_vert < 0 or v_vert > 5000) then
    perform mountain.refuse('invalid_manifest_row', format('%s: vert_m %s is outside [0, 5000]', v_owner, v_vert));
  end if;
  v_ways := mountain.manifest_way_ids(p_row, v_owner);
  v_fallback := coalesce(mountain.manifest_boolean(p_row, 'name_fallback_reviewed', v_owner), false);
  if cardinality(v_ways) = 0 and not v_fallback then
    perform mountain.refuse('identity_source_missing', format(
      '%s lists no osm_way_ids; give its ways, or mark it name_fallback_reviewed once a reviewer confirmed the name matches OSM exactly', v_owner));
  end if;
  if p_row -> 'canonical_geometry' is not null and jsonb_typeof(p_row -> 'canonical_geometry') not in ('object', 'null') then
    perform mountain.refuse('invalid_manifest_row', format('%s: canonical_geometry must be a GeoJSON geometry object', v_owner));
  end if;
  return jsonb_build_object(
    'name', v_name, 'difficulty', v_difficulty,
    'is_groomed', mountain.manifest_boolean(p_row, 'is_groomed', v_owner),
    'has_moguls', coalesce(mountain.manifest_boolean(p_row, 'has_moguls', v_owner), false),
    'is_gladed', coalesce(mountain.manifest_boolean(p_row, 'is_gladed', v_owner), false),
    'length_m', v_length, 'vert_m', v_vert, 'osm_way_ids', to_jsonb(v_ways),
    'canonical_geometry', nullif(p_row -> 'canonical_geometry', 'null'::jsonb),
    'name_fallback_reviewed', v_fallback);
end
$$;

-- One lift row, validated and normalised.
create or replace function mountain.normalized_lift(p_row jsonb, p_index integer) returns jsonb
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_owner text := format('lift #%s', p_index);
  v_name text;
  v_type text;
  v_capacity double precision;
  v_ride double precision;
  v_rise double precision;
  v_hours double precision[];
  v_waits double precision[];
  v_coords jsonb := '{}';
  v_key text;
  v_ways text[];
  v_fallback boolean;
begin
  perform mountain.manifest_check_keys(p_row, array['name', 'lift_type', 'capacity', 'ride_time_s', 'vertical_rise_m',
    'weekday_wait_min', 'weekend_wait_min', 'base_coord', 'top_coord', 'osm_way_ids', 'canonical_geometry',
    'open_hour', 'close_hour', 'night_close_hour', 'name_fallback_reviewed'], v_owner);
  v_name := mountain.identity_name(p_row ->> 'name');
  if v_name is null or jsonb_typeof(p_row -> 'name') <> 'string' then
    perform mountain.refuse('identity_name_missing', format('%s has no name; every canonical lift is a named identity', v_owner));
  end if;
  v_owner := format('lift "%s"', v_name);
  v_type := mountain.lift_type_name(p_row ->> 'lift_type');
  if v_type is not null and v_type not in ('chair_lift', 'gondola', 'cable_car', 'mixed_lift', 'drag_lift', 't-bar',
      'j-bar', 'platter', 'rope_tow', 'magic_carpet', 'funicular', 'unknown') then
    perform mountain.refuse('invalid_manifest_row', format(
      '%s: lift_type "%s" is not one of chair_lift, gondola, cable_car, mixed_lift, drag_lift, t-bar, j-bar, platter, rope_tow, magic_carpet, funicular, unknown',
      v_owner, p_row ->> 'lift_type'));
  end if;
  v_capacity := mountain.manifest_number(p_row, 'capacity', v_owner);
  if v_capacity is not null and (v_capacity <> trunc(v_capacity) or v_capacity < 0 or v_capacity > 65535) then
    perform mountain.refuse('invalid_manifest_row', format('%s: capacity %s is not a whole number in 0…65535', v_owner, v_capacity));
  end if;
  v_ride := mountain.manifest_number(p_row, 'ride_time_s', v_owner);
  if v_ride is not null and (v_ride <= 0 or v_ride > 7200) then
    perform mountain.refuse('invalid_manifest_row', format('%s: ride_time_s %s is outside (0, 7200]', v_owner, v_ride));
  end if;
  v_rise := mountain.manifest_number(p_row, 'vertical_rise_m', v_owner);
  if v_rise is not null and (v_rise < 0 or v_rise > 5000) then
    perform mountain.refuse('invalid_manifest_row', format('%s: vertical_rise_m %s is outside [0, 5000]', v_owner, v_rise));
  end if;
  v_waits := array[mountain.manifest_number(p_row, 'weekday_wait_min', v_owner),
                   mountain.manifest_number(p_row, 'weekend_wait_min', v_owner)];
  if exists (select 1 from unnest(v_waits) w where w < 0 or w > 60) then
    perform mountain.refuse('invalid_manifest_row', format('%s: waits are minutes in 0…60', v_owner));
  end if;
  v_hours := array[mountain.manifest_number(p_row, 'open_hour', v_owner),
                   mountain.manifest_number(p_row, 'close_hour', v_owner),
                   mountain.manifest_number(p_row, 'night_close_hour', v_owner)];
  if exists (select 1 from unnest(v_hours) h where h < 0 or h > 24) then
    perform mountain.refuse('invalid_manifest_row', format('%s: operating hours are resort-local hours in 0…24', v_owner));
  end if;
  foreach v_key in array array['base_coord', 'top_coord'] loop
    if p_row -> v_key is not null and jsonb_typeof(p_row -> v_key) <> 'null' then
      if jsonb_typeof(p_row -> v_key) <> 'array' or jsonb_array_length(p_row -> v_key) <> 2
         or jsonb_typeof(p_row -> v_key -> 0) <> 'number' or jsonb_typeof(p_row -> v_key -> 1) <> 'number'
         or abs((p_row -> v_key ->> 0)::double precision) > 180 or abs((p_row -> v_key ->> 1)::double precision) > 90 then
        perform mountain.refuse('invalid_manifest_row', format('%s: %s must be [lon, lat]', v_owner, v_key));
      end if;
      v_coords := v_coords || jsonb_build_object(v_key, p_row -> v_key);
    end if;
  end loop;
  v_ways := mountain.manifest_way_ids(p_row, v_owner);
  v_fallback := coalesce(mountain.manifest_boolean(p_row, 'name_fallback_reviewed', v_owner), false);
  if cardinality(v_ways) = 0 and not v_fallback then
    perform mountain.refuse('identity_source_missing', format(
      '%s lists no osm_way_ids; give its ways, or mark it name_fallback_reviewed once a reviewer confirmed the name matches OSM exactly', v_owner));
  end if;
  if p_row -> 'canonical_geometry' is not null and jsonb_typeof(p_row -> 'canonical_geometry') not in ('object', 'null') then
    perform mountain.refuse('invalid_manifest_row', format('%s: canonical_geometry must be a GeoJSON geometry object', v_owner));
  end if;
  return jsonb_build_object(
    'name', v_name, 'lift_type', v_type, 'capacity', v_capacity::integer, 'ride_time_s', v_ride,
    'vertical_rise_m', v_rise, 'weekday_wait_min', v_waits[1], 'weekend_wait_min', v_waits[2],
    'base_coord', v_coords -> 'base_coord', 'top_coord', v_coords -> 'top_coord',
    'osm_way_ids', to_jsonb(v_ways), 'canonical_geometry', nullif(p_row -> 'canonical_geometry', 'null'::jsonb),
    'open_hour', v_hours[1], 'close_hour', v_hours[2], 'night_close_hour', v_hours[3],
    'name_fallback_reviewed', v_fallback);
end
$$;

-- One reviewed connector, validated and normalised.
create or replace function mountain.normalized_connector(p_row jsonb, p_index integer) returns jsonb
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_owner text := format('connector #%s', p_index);
  v_id bigint;
  v_from bigint;
  v_to bigint;
begin
  perform mountain.manifest_check_keys(p_row, array['connector_id', 'from_osm_node_id', 'to_osm_node_id',
    'bidirectional', 'evidence'], v_owner);
  v_id := mountain.manifest_id(p_row -> 'connector_id', v_owner, 'connector_id');
  v_owner := format('connector %s', v_id);
  v_from := mountain.manifest_id(p_row -> 'from_osm_node_id', v_owner, 'from_osm_node_id');
  v_to := mountain.manifest_id(p_row -> 'to_osm_node_id', v_owner, 'to_osm_node_id');
  if v_from = v_to then
    perform mountain.refuse('invalid_manifest_row', format('%s joins node %s to itself', v_owner, v_from));
  end if;
  if p_row -> 'evidence' is not null and jsonb_typeof(p_row -> 'evidence') not in ('object', 'null') then
    perform mountain.refuse('invalid_manifest_row', format('%s: evidence must be an object', v_owner));
  end if;
  return jsonb_build_object('connector_id', v_id, 'from_osm_node_id', v_from, 'to_osm_node_id', v_to,
    'bidirectional', coalesce(mountain.manifest_boolean(p_row, 'bidirectional', v_owner), true),
    'evidence', nullif(p_row -> 'evidence', 'null'::jsonb));
end
$$;

-- One rendezvous point of the overlay, validated and normalised.
create or replace function mountain.normalized_rendezvous_point(p_row jsonb, p_index integer) returns jsonb
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  v_owner text := format('rendezvous point #%s', p_index);
  v_anchor bigint;
  v_kind text;
  v_name text;
  v_confidence double precision;
  v_quality double precision;
begin
  perform mountain.manifest_check_keys(p_row, array['anchor_osm_node_id', 'kind', 'display_name', 'confidence', 'quality'], v_owner);
  v_anchor := mountain.manifest_id(p_row -> 'anchor_osm_node_id', v_owner, 'anchor_osm_node_id');
  v_owner := format('rendezvous point at node %s', v_anchor);
  v_kind := p_row ->> 'kind';
  if v_kind is null or v_kind not in ('lodge', 'restaurant', 'liftBase', 'liftTop', 'midStation', 'summit', 'landmark') then
    perform mountain.refuse('invalid_rendezvous_point', format(
      '%s: kind "%s" is not one of lodge, restaurant, liftBase, liftTop, midStation, summit, landmark', v_owner, v_kind));
  end if;
  v_name := mountain.identity_name(p_row ->> 'display_name');
  if v_name is null or jsonb_typeof(p_row -> 'display_name') <> 'string' then
    perform mountain.refuse('invalid_rendezvous_point', format('%s has no display_name; give the name skiers see', v_owner));
  end if;
  v_confidence := mountain.manifest_number(p_row, 'confidence', v_owner);
  v_quality := mountain.manifest_number(p_row, 'quality', v_owner);
  if v_confidence is null or v_quality is null or v_confidence not between 0 and 1 or v_quality not between 0 and 1 then
    perform mountain.refuse('invalid_rendezvous_point', format('%s: confidence and quality are numbers in 0…1', v_owner));
  end if;
  return jsonb_build_object('anchor_osm_node_id', v_anchor, 'kind', v_kind, 'display_name', v_name,
    'confidence', v_confidence, 'quality', v_quality);
end
$$;

-- Stages a reviewed manifest (its rows, connectors and rendezvous overlay) as
-- the resort's next version, atomically, and returns that version. Content
-- equal to the newest manifest's stages nothing and returns the newest
-- version. Never touches the active pointer or an existing version: a
-- change to any row or to the overlay is a new version.
drop function if exists mountain.apply_canonical_manifest(text, integer, integer, jsonb, jsonb, jsonb, integer, integer, boolean, date, text[], text);
create or replace function mountain.apply_canonical_manifest(
  p_resort_id text,
  p_expected_trail_count integer,
  p_expected_lift_count integer,
  p_trails jsonb,
  p_lifts jsonb,
  p_connectors jsonb default '[]',
  p_rendezvous_points jsonb default '[]',
  p_headline_trail_count integer default null,
  p_headline_lift_count integer default null,
  p_canonical_counts_reviewed boolean default false,
  p_evidence_observed_at date default null,
  p_evidence_urls text[] default '{}',
  p_validator_notes text default ''
) returns integer
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_trails jsonb := '[]';
  v_lifts jsonb := '[]';
  v_connectors jsonb := '[]';
  v_points jsonb := '[]';
  v_row jsonb;
  v_duplicate text;
  v_claim record;
  v_hash text;
  v_newest record;
  v_version integer;
begin
  perform 1 from mountain.resorts where id = p_resort_id for update;
  if not found then
    perform mountain.refuse('resort_not_found', format('There is no resort "%s"; ingest an extract for it first: summit resort ingest %s --osm FILE', p_resort_id, p_resort_id));
  end if;
  if p_expected_trail_count is null or p_expected_lift_count is null
     or p_expected_trail_count < 0 or p_expected_lift_count < 0 then
    perform mountain.refuse('invalid_expected_counts', 'Give expected_trail_count and expected_lift_count: the numbers of unique routable identities, 0 or more');
  end if;
  if coalesce(p_headline_trail_count, 0) < 0 or coalesce(p_headline_lift_count, 0) < 0 then
    perform mountain.refuse('invalid_expected_counts', 'Headline counts are 0 or more');
  end if;
  foreach v_duplicate in array array['trails', 'lifts', 'connectors'] loop
    v_row := case v_duplicate when 'trails' then p_trails when 'lifts' then p_lifts else coalesce(p_connectors, '[]') end;
    if jsonb_typeof(v_row) is distinct from 'array' then
      perform mountain.refuse('invalid_manifest_row', format('%s must be a JSON array of rows', v_duplicate));
    end if;
  end loop;
  if jsonb_typeof(coalesce(p_rendezvous_points, '[]')) <> 'array' then
    perform mountain.refuse('invalid_rendezvous_point', 'rendezvous_points must be a JSON array of {anchor_osm_node_id, kind, display_name, confidence, quality}');
  end if;

  -- Set-based, so that a manifest of thousands of rows costs linear time
  -- (appending to a jsonb array in a loop copies it every time).
  select coalesce(jsonb_agg(mountain.normalized_trail(e, i::integer) order by i), '[]') into v_trails
  from jsonb_array_elements(p_trails) with ordinality as t(e, i);
  select coalesce(jsonb_agg(mountain.normalized_lift(e, i::integer) order by i), '[]') into v_lifts
  from jsonb_array_elements(p_lifts) with ordinality as t(e, i);
  select coalesce(jsonb_agg(mountain.normalized_connector(e, i::integer) order by i), '[]') into v_connectors
  from jsonb_array_elements(coalesce(p_connectors, '[]')) with ordinality as t(e, i);
  select coalesce(jsonb_agg(mountain.normalized_rendezvous_point(e, i::integer) order by i), '[]') into v_points
  from jsonb_array_elements(coalesce(p_rendezvous_points, '[]')) with ordinality as t(e, i);

  select kind || ' "' || name || '"' into v_duplicate from (
    select 'trail' as kind, e ->> 'name' as name from jsonb_array_elements(v_trails) e
    union all select 'lift', e ->> 'name' from jsonb_array_elements(v_lifts) e) rows
  group by kind, name having count(*) > 1 order by 1 limit 1;
  if v_duplicate is not null then
    perform mountain.refuse('duplicate_identity', format('%s appears more than once; keep one row per identity name', v_duplicate));
  end if;

  select way, string_agg(owner, ' and ' order by owner) as owners into v_claim from (
    select w as way, 'trail "' || (e ->> 'name') || '"' as owner
    from jsonb_array_elements(v_trails) e, jsonb_array_elements_text(e -> 'osm_way_ids') w
    union all
    select w, 'lift "' || (e ->> 'name') || '"'
    from jsonb_array_elements(v_lifts) e, jsonb_array_elements_text(e -> 'osm_way_ids') w) claims
  group by way having count(*) > 1 order by way::bigint limit 1;
  if v_claim.way is not null then
    perform mountain.refuse('multiply_claimed', format('Way %s is claimed by %s; each way belongs to one identity', v_claim.way, v_claim.owners));
  end if;

  select (e ->> 'connector_id') into v_duplicate from jsonb_array_elements(v_connectors) e
  group by 1 having count(*) > 1 limit 1;
  if v_duplicate is not null then
    perform mountain.refuse('invalid_manifest_row', format('connector %s appears more than once', v_duplicate));
  end if;
  select c ->> 'connector_id' into v_duplicate
  from jsonb_array_elements(v_connectors) c
  join (select w from jsonb_array_elements(v_trails || v_lifts) e, jsonb_array_elements_text(e -> 'osm_way_ids') w) claimed
    on claimed.w = c ->> 'connector_id'
  order by (c ->> 'connector_id')::bigint
  limit 1;
  if v_duplicate is not null then
    perform mountain.refuse('invalid_manifest_row', format('connector id %s is also a claimed way id; reviewed connectors take ids far above OSM way ids', v_duplicate));
  end if;

  select (e ->> 'anchor_osm_node_id') into v_duplicate from jsonb_array_elements(v_points) e
  group by 1 having count(*) > 1 order by (e ->> 'anchor_osm_node_id')::bigint limit 1;
  if v_duplicate is not null then
    perform mountain.refuse('invalid_rendezvous_point', format('node %s anchors two rendezvous points; keep one', v_duplicate));
  end if;

  if jsonb_array_length(v_trails) <> p_expected_trail_count then
    perform mountain.refuse('count_mismatch', format('%s trail rows but expected_trail_count is %s; fix the rows or the reviewed count',
      jsonb_array_length(v_trails), p_expected_trail_count));
  end if;
  if jsonb_array_length(v_lifts) <> p_expected_lift_count then
    perform mountain.refuse('count_mismatch', format('%s lift rows but expected_lift_count is %s; fix the rows or the reviewed count',
      jsonb_array_length(v_lifts), p_expected_lift_count));
  end if;

  -- The content a build depends on: counts and every normalised row
  -- (evidence aside), rows in name order, connectors and rendezvous points in
  -- id order. An empty overlay adds no key, so a manifest without rendezvous
  -- points keeps the hash it had before the overlay was part of the content.
  v_hash := encode(sha256(convert_to((jsonb_build_object(
    'resort_id', p_resort_id,
    'expected_trail_count', p_expected_trail_count, 'expected_lift_count', p_expected_lift_count,
    'trails', coalesce((select jsonb_agg(e order by e ->> 'name' collate "C") from jsonb_array_elements(v_trails) e), '[]'),
    'lifts', coalesce((select jsonb_agg(e order by e ->> 'name' collate "C") from jsonb_array_elements(v_lifts) e), '[]'),
    'connectors', coalesce((select jsonb_agg(e - 'evidence' order by (e ->> 'connector_id')::bigint)
                            from jsonb_array_elements(v_connectors) e), '[]'))
    || case when jsonb_array_length(v_points) > 0 then jsonb_build_object('rendezvous_points',
         (select jsonb_agg(e order by (e ->> 'anchor_osm_node_id')::bigint) from jsonb_array_elements(v_points) e))
       else '{}' end)::text, 'UTF8')), 'hex');

  select m.manifest_version, m.content_hash into v_newest
  from mountain.resort_canonical_manifest m where m.resort_id = p_resort_id
  order by m.manifest_version desc limit 1;
  if v_newest.content_hash = v_hash then
    return v_newest.manifest_version;
  end if;
  v_version := coalesce(v_newest.manifest_version, 0) + 1;

  insert into mountain.resort_canonical_manifest (
    resort_id, manifest_version, expected_trail_count, expected_lift_count, headline_trail_count,
    headline_lift_count, canonical_counts_reviewed, evidence_observed_at, evidence_urls, validator_notes,
    content_hash, status, created_at)
  values (p_resort_id, v_version, p_expected_trail_count, p_expected_lift_count, p_headline_trail_count,
    p_headline_lift_count, coalesce(p_canonical_counts_reviewed, false), p_evidence_observed_at,
    coalesce(p_evidence_urls, '{}'), coalesce(p_validator_notes, ''), v_hash, 'staged', summit.now());

  insert into mountain.canonical_trail (resort_id, manifest_version, name, difficulty, is_groomed, has_moguls,
    is_gladed, length_m, vert_m, osm_way_ids, canonical_geometry, name_fallback_reviewed)
  select p_resort_id, v_version, e ->> 'name', e ->> 'difficulty', (e ->> 'is_groomed')::boolean,
    (e ->> 'has_moguls')::boolean, (e ->> 'is_gladed')::boolean, (e ->> 'length_m')::double precision,
    (e ->> 'vert_m')::double precision, array(select jsonb_array_elements_text(e -> 'osm_way_ids')),
    e -> 'canonical_geometry', (e ->> 'name_fallback_reviewed')::boolean
  from jsonb_array_elements(v_trails) e;

  insert into mountain.canonical_lift (resort_id, manifest_version, name, lift_type, capacity, ride_time_s,
    vertical_rise_m, weekday_wait_min, weekend_wait_min, base_coord, top_coord, osm_way_ids, canonical_geometry,
    open_hour, close_hour, night_close_hour, name_fallback_reviewed)
  select p_resort_id, v_version, e ->> 'name', e ->> 'lift_type', (e ->> 'capacity')::integer,
    (e ->> 'ride_time_s')::double precision, (e ->> 'vertical_rise_m')::double precision,
    (e ->> 'weekday_wait_min')::double precision, (e ->> 'weekend_wait_min')::double precision,
    case when e -> 'base_coord' <> 'null' then array[(e -> 'base_coord' ->> 0)::double precision, (e -> 'base_coord' ->> 1)::double precision] end,
    case when e -> 'top_coord' <> 'null' then array[(e -> 'top_coord' ->> 0)::double precision, (e -> 'top_coord' ->> 1)::double precision] end,
    array(select jsonb_array_elements_text(e -> 'osm_way_ids')), e -> 'canonical_geometry',
    (e ->> 'open_hour')::double precision, (e ->> 'close_hour')::double precision,
    (e ->> 'night_close_hour')::double precision, (e ->> 'name_fallback_reviewed')::boolean
  from jsonb_array_elements(v_lifts) e;

  insert into mountain.canonical_connector (resort_id, manifest_version, connector_id, from_osm_node_id,
    to_osm_node_id, bidirectional, evidence)
  select p_resort_id, v_version, (e ->> 'connector_id')::bigint, (e ->> 'from_osm_node_id')::bigint,
    (e ->> 'to_osm_node_id')::bigint, (e ->> 'bidirectional')::boolean, e -> 'evidence'
  from jsonb_array_elements(v_connectors) e;

  insert into mountain.canonical_rendezvous_point (resort_id, manifest_version, anchor_osm_node_id, kind, display_name,
    confidence, quality)
  select p_resort_id, v_version, (e ->> 'anchor_osm_node_id')::bigint, e ->> 'kind', e ->> 'display_name',
    (e ->> 'confidence')::double precision, (e ->> 'quality')::double precision
  from jsonb_array_elements(v_points) e;

  return v_version;
end
$$;

-- apply_canonical_manifest is the one way a rendezvous overlay comes in: the
-- former per-version replacement goes wherever a database still has it.
drop function if exists mountain.replace_canonical_rendezvous_points(text, integer, jsonb);

-- Everything a build of (resort, manifest) applies, keyed as MountainGraph's
-- CanonicalManifest decodes it: counts, trails, lifts, connectors and the
-- rendezvous overlay, each in a stable order.
create or replace function mountain.canonical_manifest_document(p_resort_id text, p_manifest_version integer)
  returns jsonb
  language plpgsql stable
  set search_path = ''
  as $$
declare
  v_manifest mountain.resort_canonical_manifest;
begin
  select * into v_manifest from mountain.resort_canonical_manifest
  where resort_id = p_resort_id and manifest_version = p_manifest_version;
  if not found then
    perform mountain.refuse('manifest_not_found', format('%s has no manifest v%s; stage one first: summit resort apply %s', p_resort_id, p_manifest_version, p_resort_id));
  end if;
  return jsonb_build_object(
    'resort_id', v_manifest.resort_id,
    'manifest_version', v_manifest.manifest_version,
    'content_hash', v_manifest.content_hash,
    'expected_trail_count', v_manifest.expected_trail_count,
    'expected_lift_count', v_manifest.expected_lift_count,
    'trails', coalesce((select jsonb_agg(jsonb_build_object(
        'name', t.name, 'difficulty', t.difficulty, 'is_groomed', t.is_groomed, 'has_moguls', t.has_moguls,
        'is_gladed', t.is_gladed, 'length_m', t.length_m, 'vert_m', t.vert_m, 'osm_way_ids', to_jsonb(t.osm_way_ids),
        'name_fallback_reviewed', t.name_fallback_reviewed) order by t.name collate "C")
      from mountain.canonical_trail t where t.resort_id = p_resort_id and t.manifest_version = p_manifest_version), '[]'),
    'lifts', coalesce((select jsonb_agg(jsonb_build_object(
        'name', l.name, 'lift_type', l.lift_type, 'capacity', l.capacity, 'ride_time_s', l.ride_time_s,
        'vertical_rise_m', l.vertical_rise_m, 'osm_way_ids', to_jsonb(l.osm_way_ids),
        'name_fallback_reviewed', l.name_fallback_reviewed) order by l.name collate "C")
      from mountain.canonical_lift l where l.resort_id = p_resort_id and l.manifest_version = p_manifest_version), '[]'),
    'connectors', coalesce((select jsonb_agg(jsonb_build_object(
        'connector_id', c.connector_id, 'from_osm_node_id', c.from_osm_node_id, 'to_osm_node_id', c.to_osm_node_id,
        'bidirectional', c.bidirectional) order by c.connector_id)
      from mountain.canonical_connector c where c.resort_id = p_resort_id and c.manifest_version = p_manifest_version), '[]'),
    'rendezvous_points', coalesce((select jsonb_agg(jsonb_build_object(
        'anchor_osm_node_id', r.anchor_osm_node_id, 'kind', r.kind, 'display_name', r.display_name,
        'confidence', r.confidence, 'quality', r.quality) order by r.anchor_osm_node_id)
      from mountain.canonical_rendezvous_point r where r.resort_id = p_resort_id and r.manifest_version = p_manifest_version), '[]'));
end
$$;

revoke all on function mountain.apply_canonical_manifest(text, integer, integer, jsonb, jsonb, jsonb, jsonb, integer, integer, boolean, date, text[], text) from public;
revoke all on function mountain.canonical_manifest_document(text, integer) from public;
grant execute on function mountain.apply_canonical_manifest(text, integer, integer, jsonb, jsonb, jsonb, jsonb, integer, integer, boolean, date, text[], text) to service_role;
grant execute on function mountain.canonical_manifest_document(text, integer) to service_role;
