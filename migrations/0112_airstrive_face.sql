-- The AirStrive face: the schema AirStrive's key addresses by default, so its
-- client (supabase-js) reaches the core by the seed's unqualified names. Its
-- views and functions are repeatable definitions in sql/faces/airstrive.sql.
create schema if not exists airstrive;
grant usage on schema airstrive to anon, authenticated, service_role;
