-- The server clock every rule reads.
--
-- Rules that depend on time (expiry, last-write-wins, rate windows) call
-- summit.now() instead of now(), so tests can freeze time. Only a database that
-- has the test-only `tests` schema honours a frozen clock; anywhere else the
-- setting is ignored, so no client can move the server's clock.
create schema if not exists summit;
grant usage on schema summit to anon, authenticated, service_role;
