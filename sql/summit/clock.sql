-- summit.now(): the transaction's time, or the frozen time in a test database.
-- A SQL function with no SET clause, so it is inlined wherever it is called
-- (every write path asks for the time); its body names only pg_catalog, qualified.
create or replace function summit.now() returns timestamptz
  language sql stable
  as $$
    select case
      when coalesce(pg_catalog.current_setting('summit.frozen_now', true), '') = '' then pg_catalog.now()
      when pg_catalog.to_regnamespace('tests') is null then pg_catalog.now()
      else pg_catalog.current_setting('summit.frozen_now', true)::pg_catalog.timestamptz
    end
  $$;

grant execute on function summit.now() to anon, authenticated, service_role;
