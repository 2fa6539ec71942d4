-- resolve_resort_id: which resort a position is at. The resort whose box holds
-- the position; where boxes overlap, the one whose centre is nearest; when no
-- box holds it, the nearest box within 3 km of it (the boxes are drawn
-- round the lifts and runs, and car parks and base areas sit at their edges);
-- else none. Readable by anyone: the catalog is public.

create or replace function mountain.resolve_resort_id(p_lat double precision, p_lon double precision)
  returns text
  language sql stable
  set search_path = ''
  as $$
    select r.id
    from mountain.resorts r,
      -- Metres north-south and east-west from the position to the box (0 inside it).
      lateral (select greatest(r.lat_min - p_lat, p_lat - r.lat_max, 0) * 111320 as dy,
                      greatest(r.lon_min - p_lon, p_lon - r.lon_max, 0) * 111320 * cos(radians(p_lat)) as dx) outside,
      lateral (select (r.center_lat - p_lat) * 111320 as cy,
                      (r.center_lon - p_lon) * 111320 * cos(radians(p_lat)) as cx) centre
    where p_lat between -90 and 90 and p_lon between -180 and 180
      and sqrt(outside.dy ^ 2 + outside.dx ^ 2) <= 3000
    order by sqrt(outside.dy ^ 2 + outside.dx ^ 2), centre.cy ^ 2 + centre.cx ^ 2, r.id
    limit 1
  $$;
grant execute on function mountain.resolve_resort_id(double precision, double precision) to anon, authenticated, service_role;
