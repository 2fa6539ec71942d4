-- Geohash as the apps compute it (alphabet 0123456789bcdefghjkmnpqrstuvwxyz,
-- bits alternate starting with longitude, a bit is 1 when the value is at or
-- above its interval's midpoint, 5 bits a character). The publish RPC names a
-- sender's cell channel `pos:cell:{geohash6}` with it, so it must agree with the
-- phones to the last bit: it bisects like they do rather than scaling, since
-- every midpoint is a binary fraction of 180 or 360 and so compares exactly.
create or replace function private.geohash(p_lat double precision, p_lon double precision, p_precision int default 6)
  returns text
  language plpgsql immutable strict parallel safe
  set search_path = ''
  as $$
declare
  alphabet constant text := '0123456789bcdefghjkmnpqrstuvwxyz';
  lat_low double precision := -90;
  lat_high double precision := 90;
  lon_low double precision := -180;
  lon_high double precision := 180;
  mid double precision;
  value int := 0;
  bit_count int := 0;
  longitude_bit boolean := true;
  hash text := '';
begin
  if p_lat not between -90 and 90 or p_lon not between -180 and 180 or p_precision not between 1 and 12 then
    perform private.fail('geohash_out_of_range', 'Latitude must be within -90..90, longitude within -180..180, precision 1..12.');
  end if;
  while bit_count < p_precision * 5 loop
    if longitude_bit then
      mid := (lon_low + lon_high) / 2;
      if p_lon >= mid then value := value * 2 + 1; lon_low := mid; else value := value * 2; lon_high := mid; end if;
    else
      mid := (lat_low + lat_high) / 2;
      if p_lat >= mid then value := value * 2 + 1; lat_low := mid; else value := value * 2; lat_high := mid; end if;
    end if;
    longitude_bit := not longitude_bit;
    bit_count := bit_count + 1;
    if bit_count % 5 = 0 then
      hash := hash || substr(alphabet, value + 1, 1);
      value := 0;
    end if;
  end loop;
  return hash;
end
$$;

revoke all on function private.geohash(double precision, double precision, int) from public;
