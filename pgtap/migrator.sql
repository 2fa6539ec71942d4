-- The migrator's bookkeeping: what it records and who may see it.
begin;
select plan(10);

select has_table('summit', 'schema_migrations', 'summit.schema_migrations exists');
select has_table('summit', 'repeatable_scripts', 'summit.repeatable_scripts exists');
select col_is_pk('summit', 'schema_migrations', 'version', 'migrations are keyed by version');
select ok((select count(*) from summit.schema_migrations) >= 2, 'the migrations of this checkout are recorded');
select is(
  (select count(*)::int from summit.schema_migrations where sha256 !~ '^[0-9a-f]{64}$'), 0,
  'every migration is recorded with a SHA-256');
select is(
  (select string_agg(version::text, ',' order by version) from summit.schema_migrations where version in (1, 2)),
  '1,2', 'the auth and clock migrations are applied');
select ok((select count(*) from summit.repeatable_scripts where file_name = 'summit/clock.sql') = 1,
  'repeatable scripts are recorded by file name');
select throws_ok(
  $$insert into summit.schema_migrations (version, name, sha256, duration_ms) values (1, 'again', repeat('0', 64), 0)$$,
  '23505', null, 'a version is recorded once');
select ok(not has_table_privilege('authenticated', 'summit.schema_migrations', 'select'),
  'users cannot read the migration history');
select is((select relrowsecurity from pg_class where oid = 'summit.schema_migrations'::regclass), true,
  'the bookkeeping tables have row level security');

select * from finish();
rollback;
