-- summit.now(): the transaction's time, or the frozen time in a test database.
create or replace function summit.now() returns timestamptz
  language plpgsql stable
  set search_path = pg_catalog
  as $$
declare
  frozen text := current_setting('summit.frozen_now', true);
begin
  if frozen is null or frozen = '' or to_regnamespace('tests') is null then
    return now();
  end if;
  return frozen::timestamptz;
end
$$;

grant execute on function summit.now() to anon, authenticated, service_role;
