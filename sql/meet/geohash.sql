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

-- The 6-character geohash, the same bits as private.geohash(lat, lon, 6) but
-- without its 30-step loop: on the publish path every microsecond counts.
--
-- The bisection's result for one axis is the largest index i in 0..32767 with
-- value >= low + i * step (step = 360 / 2^15 or 180 / 2^15). floor() finds it
-- up to rounding; the two comparisons after it settle the boundary exactly,
-- since low + i * step is a multiple of 2^-13 below 2^8 and so exact in a
-- double. Interleaved (longitude first), the two indexes' 30 bits are the
-- geohash's, five per character: each character takes three bits of one index
-- and two of the other, alternately, and one 32-letter table maps those five
-- bits (the three first) to the letter. Each plpgsql statement costs the
-- publish its own set-up in every transaction, so there are few of them; with
-- no SET clause the call is cheaper too, and the body names only pg_catalog
-- functions and private.fail, qualified.
create or replace function private.geohash6(p_lat double precision, p_lon double precision)
  returns text
  language plpgsql immutable strict parallel safe
  as $$
declare
  letters constant text := '028b139c46df57eghksujmtvnqwyprxz';
  x int;
  y int;
begin
  if not (p_lat between -90 and 90 and p_lon between -180 and 180) then
    perform private.fail('geohash_out_of_range', 'Latitude must be within -90..90 and longitude within -180..180.');
  end if;
  x := least(32767, pg_catalog.floor((p_lon + 180) / 360 * 32768))::int;
  x := x - (p_lon < -180 + x * 0.010986328125::float8)::int
         + (x < 32767 and p_lon >= -180 + (x + 1) * 0.010986328125::float8)::int;
  y := least(32767, pg_catalog.floor((p_lat + 90) / 180 * 32768))::int;
  y := y - (p_lat < -90 + y * 0.0054931640625::float8)::int
         + (y < 32767 and p_lat >= -90 + (y + 1) * 0.0054931640625::float8)::int;
  return pg_catalog.substr(letters, (x >> 12 & 7) * 4 + (y >> 13 & 3) + 1, 1)
      || pg_catalog.substr(letters, (y >> 10 & 7) * 4 + (x >> 10 & 3) + 1, 1)
      || pg_catalog.substr(letters, (x >> 7 & 7) * 4 + (y >> 8 & 3) + 1, 1)
      || pg_catalog.substr(letters, (y >> 5 & 7) * 4 + (x >> 5 & 3) + 1, 1)
      || pg_catalog.substr(letters, (x >> 2 & 7) * 4 + (y >> 3 & 3) + 1, 1)
      || pg_catalog.substr(letters, (y & 7) * 4 + (x & 3) + 1, 1);
end
$$;

revoke all on function private.geohash6(double precision, double precision) from public;
